import type { FileHandle } from 'node:fs/promises'
import { fileWrites, writeAt } from './fileWrites.js'
import { nodeModules } from './nodeModules.js'
import type { Sink } from './sinkTypes.js'

/**
 * A sink that writes to a temporary file beside `file` (same folder, so the
 * final rename is atomic) and renames it to `file` once complete: the final
 * name never holds a partial download. The folder is made if missing; the
 * temporary file is made at the first byte and removed on `discard`.
 */
export function fileSink(file: string): Sink {
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
    finish: () =>
      writing(async () => {
        const h = await opened()
        handle = undefined
        await h.close()
        await fs.rename(temp, final)
        gone = true
        return { file: final }
      }),
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
