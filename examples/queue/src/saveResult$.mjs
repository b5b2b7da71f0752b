import { rm } from 'node:fs/promises'
import { download$ } from 'rxgate'
import { concatMap, from, Observable, of } from 'rxjs'
import { hashFile } from './hashFile.mjs'
import { openPart } from './partFile.mjs'
import { resumingFetch } from './resumingFetch.mjs'

/**
 * Downloads a result URL to `file` with `download$`, resuming both a
 * transfer that breaks (download$'s `Range` resume) and a partial file left
 * by a worker that died (see `resumingFetch`). Emits download$'s `progress`
 * events, then `{ type: 'saved', file, bytes, sha256, resumedFrom }`, where
 * `sha256` is computed over the bytes as they were written, and checked
 * against the file read back from disk. Unsubscribing
 * stops the transfer and keeps the partial file to resume from; the final
 * name only ever holds a whole file.
 *
 * @example
 * saveResult$(completed.urls[0], 'results/42.mp4', { expiresAt: completed.expiresAt }).subscribe(console.log)
 */
export function saveResult$(url, file, { expiresAt, allowHosts = [], slowLinkMs = 0 } = {}) {
  return new Observable((subscriber) => {
    let stopped = false
    let inner
    let part
    openPart(file).then(
      (opened) => {
        part = opened
        if (stopped) return void part.close()
        const fetch = resumingFetch(part, { slowLinkMs })
        inner = download$(url, part.writable, { expiresAt, allowHosts, fetch })
          .pipe(
            concatMap((event) =>
              event.type === 'progress' ? of(event) : from(committed(part)),
            ),
          )
          .subscribe(subscriber)
      },
      (error) => subscriber.error(error),
    )
    return () => {
      stopped = true
      inner?.unsubscribe()
      void part?.close()
    }
  })
}

/** Gives the part its final name, then reads it back: a file that is not what was written (two workers on one job, a disk fault) is removed and the attempt fails. */
async function committed(part) {
  const saved = await part.commit()
  const onDisk = await hashFile(saved.file)
  if (onDisk.sha256 !== saved.sha256 || onDisk.bytes !== saved.bytes) {
    await rm(saved.file, { force: true })
    throw new Error(`${saved.file} does not hold the bytes downloaded (sha256 ${onDisk.sha256}, expected ${saved.sha256}); removed, to be downloaded again`)
  }
  return { type: 'saved', ...saved, resumedFrom: part.resumedFrom ?? 0 }
}
