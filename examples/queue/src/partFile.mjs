import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Removes what earlier tries left of `file`'s download (called once `file` is whole). */
export async function discardPart(file) {
  await rm(`${file}.part`, { force: true })
  await rm(`${file}.part.json`, { force: true })
}

/** The validator saved beside a part; none when missing or torn (a worker killed while writing it): then the part is not trusted. */
async function validatorOf(metaPath) {
  try {
    const { validator } = JSON.parse(await readFile(metaPath, 'utf8'))
    return typeof validator === 'string' ? validator : undefined
  } catch {
    return undefined
  }
}

/**
 * The partial download of `file`, kept where a worker that dies leaves it:
 * `<file>.part` holds the bytes received so far, `<file>.part.json` the
 * validator (ETag or Last-Modified) of the version they belong to. The next
 * worker that picks the job up asks only for the rest of that version; the
 * final name appears only by `commit()`'s rename, so it never holds a
 * partial file. Both files live on the same disk, so they can never
 * disagree the way a validator kept elsewhere (in Redis) could after a
 * crash between two writes.
 *
 * @example
 * const part = await openPart('results/42.mp4')
 * part.resumable // true when a dead worker left bytes and the version they belong to
 */
export async function openPart(file) {
  const path = `${file}.part`
  const metaPath = `${file}.part.json`
  await mkdir(dirname(file), { recursive: true })
  // Read and write, created if missing, never truncated here: positional writes ignore 'a' on Linux.
  const handle = await open(path, constants.O_RDWR | constants.O_CREAT)
  let size = (await handle.stat()).size
  let validator = await validatorOf(metaPath)
  let position = 0
  const hash = createHash('sha256')
  // Disk operations run one after another, in the order they were asked for.
  let queue = Promise.resolve()
  let failed
  const serial = (step) => {
    const next = queue.then(() => {
      if (failed) throw failed
      return step()
    })
    queue = next.catch((error) => {
      failed ??= error
    })
    return next
  }

  return {
    /** Bytes left on disk by an earlier try. */
    get size() {
      return size
    },
    get validator() {
      return validator
    },
    /** Bytes are on disk and the version they belong to is known: only the rest need be asked for. */
    get resumable() {
      return size > 0 && typeof validator === 'string'
    },

    /**
     * The file begins again from byte 0, for the version named by
     * `nextValidator` (none: it will never be resumed). Returns at once: the
     * reply's body must be read without delay (a socket that closes while
     * nothing reads it loses the bytes it held), so the truncation and the
     * new validator are written before the first byte, in the write queue.
     */
    restart(nextValidator) {
      size = 0
      validator = nextValidator
      void serial(async () => {
        await handle.truncate(0)
        // Written in place: a torn file reads as no validator, and the part is then begun again.
        await writeFile(metaPath, JSON.stringify({ validator: nextValidator }))
      }).catch(() => {}) // a failure here fails the first write, which waits for the same queue
    },

    /** The first `length` bytes already on disk, as a stream (they are written again, in place, identical). */
    prefix(length) {
      let at = 0
      return new ReadableStream({
        async pull(controller) {
          const buffer = new Uint8Array(Math.min(65_536, length - at))
          const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, at)
          if (bytesRead === 0) return controller.error(new Error(`${path} is shorter than ${length} bytes`))
          at += bytesRead
          controller.enqueue(buffer.subarray(0, bytesRead))
          if (at >= length) controller.close()
        },
      })
    },

    /** The target of `download$`: every byte written in order from 0, and hashed as it is written. */
    writable: {
      write(chunk, callback) {
        serial(async () => {
          for (let at = 0; at < chunk.byteLength; ) {
            const { bytesWritten } = await handle.write(chunk, at, chunk.byteLength - at, position)
            at += bytesWritten
            position += bytesWritten
          }
          hash.update(chunk)
        }).then(() => callback(), callback)
        return true
      },
      end(callback) {
        callback?.()
      },
    },

    /** The download is whole: flush it to disk, give it its final name, and return its size and sha256. */
    commit: () =>
      serial(async () => {
        await handle.truncate(position) // a longer leftover of another version must not trail the file
        await handle.sync()
        await handle.close()
        await rename(path, file)
        await rm(metaPath, { force: true })
        return { file, bytes: position, sha256: hash.digest('hex') }
      }),

    /** Stop writing; the part and its validator stay, a point to resume from. */
    close: () => handle.close().catch(() => {}),
  }
}
