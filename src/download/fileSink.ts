import type { FileHandle } from 'node:fs/promises'
import { GatewayError } from '../errors/GatewayError.js'
import { fileWrites, writeAt } from './fileWrites.js'
import { nodeModules } from './nodeModules.js'
import { placeNew } from './placeNew.js'
import type { Sink } from './sinkTypes.js'

/** How {@link fileSink} treats a file already at its name. */
export interface FileSinkOptions {
  /**
   * `false`: a file (or a link) at the name when the download completes is
   * kept, and `finish` fails instead: the last step places the file only
   * where nothing is, in one step, so a file that appears during the
   * download, after any earlier check, is not replaced either.
   *
   * @defaultValue `true`
   */
  readonly overwrite?: boolean
}

/**
 * A sink that writes to a temporary file beside `file` (same folder, so the
 * final rename is atomic) and renames it to `file` once complete: the final
 * name never holds a partial download. The folder is made if missing; the
 * temporary file is made at the first byte and removed on `discard`. With
 * `overwrite: false`, `finish` fails rather than replace a file there (see
 * {@link FileSinkOptions}).
 *
 * @example
 * ```ts
 * const sink = fileSink('out/kite.mp4', { overwrite: false })
 * ```
 */
export function fileSink(file: string, { overwrite = true }: FileSinkOptions = {}): Sink {
  const { fs, path } = nodeModules()
  const final = path.resolve(file)
  const temp = path.join(path.dirname(final), `.${path.basename(final)}.${globalThis.crypto.randomUUID().slice(0, 8)}.part`)
  let handle: FileHandle | undefined
  let position = 0
  let gone = false
  const { serial, writing } = fileWrites(
    final,
    'Its partial file is removed; free some space or choose another folder, and download it again before the URL expires.',
    () => gone,
  )
  const opened = async (): Promise<FileHandle> => {
    if (!handle) {
      await fs.mkdir(path.dirname(final), { recursive: true })
      handle = await fs.open(temp, 'wx')
    }
    return handle
  }
  return {
    write: (chunk) =>
      writing(async () => {
        position = await writeAt(await opened(), chunk, position)
      }),
    restart: () =>
      writing(async () => {
        await handle?.truncate(0)
        position = 0
        return true
      }),
    finish: async () => {
      const placed = await writing(async () => {
        const h = await opened()
        handle = undefined
        await h.close()
        if (overwrite) await fs.rename(temp, final)
        else if (!(await placeNew(fs, temp, final))) return false
        gone = true
        return true
      })
      // The temporary file stays for `discard` to remove; the file at the name is untouched.
      if (!placed) throw new GatewayError(`${final} appeared while it was downloaded, and is not replaced (overwrite is false): the download is discarded. Move that file away, or pass overwrite: true.`)
      return { file: final }
    },
    discard: () =>
      serial(async () => {
        if (gone) return
        gone = true
        const h = handle
        handle = undefined
        await h?.close().catch(() => {})
        await fs.rm(temp, { force: true }).catch(() => {})
      }).catch(() => {}),
  }
}
