import * as realFs from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as realPath from 'node:path'
import { join } from 'node:path'
import { onTestFinished, vi } from 'vitest'

/** A new empty folder, removed with everything in it when the test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-download-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** `text` as the bytes a sink is given. */
export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Runs `make` with Node's file system replaced by `fs` (a sink takes its modules when made). */
export function withFs<T>(fs: Partial<typeof realFs>, make: () => T): T {
  const spy = vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) => (id === 'node:fs/promises' ? { ...realFs, ...fs } : realPath)) as never)
  try {
    return make()
  } finally {
    spy.mockRestore()
  }
}
