import type { FileHandle } from 'node:fs/promises'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { fileWrites, writeAt } from './fileWrites.js'
import { readPart, readPartVersion, writePartVersion } from './partVersion.js'
import { GatewayError } from '../errors/GatewayError.js'
import { nodeModules } from './nodeModules.js'
import { placeNew } from './placeNew.js'
import type { Sink } from './sinkTypes.js'

// Targets being written by a download of this process: two writers of one part file would interleave.
const busy = new Set<string>()

/**
 * The sink of `keepPartial`: bytes go to `<file>.part`, the version they
 * belong to to `<file>.part.json` (see `partVersion`), both beside the file,
 * so a download that fails, is unsubscribed or dies leaves them to continue
 * from; `finish` renames the part to `file` (with `overwrite: false`, only
 * where nothing is: a file there is kept, and so is the part, to be finished
 * once that file is moved). An existing `<file>.part` that is a symbolic
 * link is not followed. A target already being written by this process is
 * refused with `InvalidRequestError`.
 */
export function partialFileSink(file: string, url: string, { overwrite = true }: { readonly overwrite?: boolean } = {}): Sink {
  const { fs, path } = nodeModules()
  const final = path.resolve(file)
  const part = `${final}.part`
  if (busy.has(final)) {
    throw new InvalidRequestError([{ path: 'target', message: `${final} is being downloaded by another download$ of this process; wait for it to end` }], 'download target')
  }
  busy.add(final)
  let handle: FileHandle | undefined
  let position = 0
  let gone = false
  const { serial, writing } = fileWrites(part, 'Free some space or choose another folder, and download it again before the URL expires.', () => gone)
  const opened = async (): Promise<FileHandle> => {
    if (!handle) {
      await fs.mkdir(path.dirname(final), { recursive: true })
      // Created if missing, never truncated here; O_NOFOLLOW: a link planted under the part's name is not written through.
      const { O_RDWR, O_CREAT, O_NOFOLLOW = 0 } = fs.constants
      handle = await fs.open(part, O_RDWR | O_CREAT | O_NOFOLLOW)
    }
    return handle
  }
  const release = () => busy.delete(final)
  return {
    leftover: () =>
      writing(async () => {
        const h = await opened()
        const size = (await h.stat()).size
        const saved = await readPartVersion(fs, final, url)
        // Bytes of a known version, short of the whole: the rest is asked for. Anything else begins clean.
        if (saved && size > 0 && (saved.total === undefined || size < saved.total)) {
          position = size
          return { ...saved, bytes: size, read: () => readPart(h, size) }
        }
        await h.truncate(0)
        await writePartVersion(fs, final, url, undefined)
        return undefined
      }),
    begin: (version) => writing(() => writePartVersion(fs, final, url, version.validator === undefined ? undefined : version)),
    write: (chunk) =>
      writing(async () => {
        position = await writeAt(await opened(), chunk, position)
      }),
    restart: () =>
      writing(async () => {
        await (await opened()).truncate(0)
        position = 0
        return true
      }),
    finish: async () => {
      const placed = await writing(async () => {
        const h = await opened()
        // A longer leftover must not trail the file; synced first, so the final name never holds bytes still in flight.
        await h.truncate(position)
        await h.sync()
        handle = undefined
        await h.close()
        if (overwrite) await fs.rename(part, final)
        else if (!(await placeNew(fs, part, final))) return false
        gone = true
        release()
        await writePartVersion(fs, final, url, undefined)
        return true
      })
      if (!placed) throw new GatewayError(`${final} is there already and is not replaced (overwrite is false); the download waits in ${part}: move that file away and download it again to finish.`)
      return { file: final }
    },
    discard: (scrap = false) => {
      // Released at once: the same target may be downloaded again right after an unsubscribe.
      gone = true
      release()
      return serial(async () => {
        const h = handle
        handle = undefined
        await h?.close().catch(() => {})
        if (!scrap) return
        await fs.rm(part, { force: true }).catch(() => {})
        await writePartVersion(fs, final, url, undefined).catch(() => {})
      }).catch(() => {})
    },
  }
}
