import type { FileHandle } from 'node:fs/promises'
import { GatewayError } from '../errors/GatewayError.js'

/** The file operations of one download, one after another. */
export interface FileWrites {
  /** Runs `step` after every earlier one, whatever became of it (a discard may come in the middle of a write). */
  serial<T>(step: () => Promise<T>): Promise<T>
  /** As `serial`, refused once the download is given up; a file system failure (no space, no permission) becomes an error that names the file and what to do. */
  writing<T>(step: () => Promise<T>): Promise<T>
}

/**
 * The queue the file sinks write through: `file` is the file named in a
 * failure, `advice` what the failure tells the user to do, and `gone` says
 * whether the download was given up (then failures pass as they are).
 */
export function fileWrites(file: string, advice: string, gone: () => boolean): FileWrites {
  let chain: Promise<unknown> = Promise.resolve()
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = chain.then(step)
    chain = next.catch(() => {})
    return next
  }
  const writing = <T>(step: () => Promise<T>): Promise<T> =>
    serial(() => (gone() ? Promise.reject(new Error('the download was given up')) : step())).catch((error: unknown) => {
      if (gone()) throw error
      const reason = (error as { code?: unknown } | null)?.code ?? (error instanceof Error ? error.message : String(error))
      throw new GatewayError(`Could not write the download to ${file} (${String(reason)}). ${advice}`, { cause: error })
    })
  return { serial, writing }
}

/** Writes the whole of `chunk` at `position` (a write may take only part of it); returns the position after it. */
export async function writeAt(handle: FileHandle, chunk: Uint8Array, position: number): Promise<number> {
  for (let at = 0; at < chunk.byteLength; ) {
    const { bytesWritten } = await handle.write(chunk, at, chunk.byteLength - at, position)
    at += bytesWritten
    position += bytesWritten
  }
  return position
}
