import * as realFs from 'node:fs/promises'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileSink } from '../../src/download/fileSink.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { bytes, tempDir, withFs } from './scratch.js'

describe('fileSink', () => {
  it('writes under a hidden temporary name beside the file, renamed to it once complete', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'v.mp4'))
    expect(await readdir(dir)).toEqual([])
    await sink.write(bytes('kite '))
    await sink.write(bytes('over the sea'))
    const during = await readdir(dir)
    expect(during).toHaveLength(1)
    expect(during[0]).toMatch(/^\.v\.mp4\.[0-9a-f]{8}\.part$/)
    expect(await sink.finish(undefined)).toEqual({ file: join(dir, 'v.mp4') })
    expect(await readdir(dir)).toEqual(['v.mp4'])
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('kite over the sea')
  })

  it('makes the folder when it is missing', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'a', 'b', 'v.mp4'))
    await sink.write(bytes('kite'))
    await sink.finish(undefined)
    expect(await readFile(join(dir, 'a', 'b', 'v.mp4'), 'utf8')).toBe('kite')
  })

  it('restart begins the file again at byte 0, and is possible before any byte', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'v.mp4'))
    expect(await sink.restart()).toBe(true)
    await sink.write(bytes('first try, half'))
    expect(await sink.restart()).toBe(true)
    await sink.write(bytes('whole'))
    await sink.finish(undefined)
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('whole')
  })

  it('discard removes the temporary file; nothing is written after it', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'v.mp4'))
    await sink.write(bytes('half'))
    await sink.discard()
    expect(await readdir(dir)).toEqual([])
    const late = await sink.write(bytes('late')).catch((e: unknown) => e)
    expect(late).toBeInstanceOf(Error)
    expect((late as Error).message).toBe('the download was given up')
    expect(isGatewayError(late)).toBe(false)
    await sink.discard()
    expect(await readdir(dir)).toEqual([])
  })

  it('discard before any byte leaves nothing', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'v.mp4'))
    await sink.discard()
    await expect(sink.write(bytes('late'))).rejects.toThrow('the download was given up')
    expect(await readdir(dir)).toEqual([])
  })

  it('once finished, takes no more bytes and makes no new temporary file', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'v.mp4'))
    await sink.write(bytes('kite'))
    await sink.finish(undefined)
    await expect(sink.write(bytes('late'))).rejects.toThrow('the download was given up')
    await sink.discard()
    expect(await readdir(dir)).toEqual(['v.mp4'])
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('kite')
  })

  it('a file system refusal names the file, says what to do, and keeps the cause', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'taken'), 'x')
    const sink = fileSink(join(dir, 'taken', 'v.mp4'))
    const error = await sink.write(bytes('kite')).catch((e: unknown) => e)
    expect(isGatewayError(error)).toBe(true)
    const code = /\((E[A-Z]+)\)/.exec((error as Error).message)?.[1]
    expect(code).toMatch(/^(ENOTDIR|EEXIST)$/)
    expect((error as Error).message).toBe(
      `Could not write the download to ${join(dir, 'taken', 'v.mp4')} (${code}). Its partial file is removed; free some space or choose another folder, and download it again before the URL expires.`,
    )
    expect((error as Error).cause).toMatchObject({ code })
  })

  it('a failure that is not an Error still names the file', async () => {
    const dir = await tempDir()
    const sink = withFs({ open: (() => Promise.reject(undefined)) as never }, () => fileSink(join(dir, 'v.mp4')))
    const error = await sink.write(bytes('kite')).catch((e: unknown) => e)
    expect(isGatewayError(error)).toBe(true)
    expect((error as Error).message).toMatch(/^Could not write the download to .*v\.mp4 \(undefined\)\. /)
  })

  it('a failure without a code is named by its message', async () => {
    const dir = await tempDir()
    const sink = withFs({ open: (() => Promise.reject(new Error('disk unplugged'))) as never }, () => fileSink(join(dir, 'v.mp4')))
    await expect(sink.write(bytes('kite'))).rejects.toThrow(/^Could not write the download to .*v\.mp4 \(disk unplugged\)\. /)
  })

  it('a short write is continued until the whole chunk is on disk', async () => {
    const dir = await tempDir()
    // A file system that writes at most 3 bytes per call, and refuses a range past the buffer's end as Node does.
    const open = async (file: string, flags: string) => {
      const handle = await realFs.open(file, flags)
      return Object.assign(Object.create(handle) as object, {
        write: (buffer: Uint8Array, offset: number, length: number, position: number) => {
          if (offset + length > buffer.byteLength) return Promise.reject(new RangeError('out of range'))
          return handle.write(buffer, offset, Math.min(3, length), position)
        },
        truncate: (n: number) => handle.truncate(n),
        close: () => handle.close(),
      })
    }
    const sink = withFs({ open: open as never }, () => fileSink(join(dir, 'v.mp4')))
    await sink.write(bytes('kite over '))
    await sink.write(bytes('the sea'))
    await sink.finish(undefined)
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('kite over the sea')
  })
})

describe('fileSink outside Node', () => {
  const MESSAGE = 'Invalid download target: target: a file path needs Node 20.16 or later; elsewhere pass { blob: true } or a stream. Nothing was sent.'

  it('refuses a file path where the runtime cannot load Node modules', () => {
    // As in Node before 20.16, or a runtime with a `process` but no built-in modules.
    const saved = process.getBuiltinModule
    let error: unknown
    try {
      ;(process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined
      fileSink('out/v.mp4')
    } catch (e) {
      error = e
    } finally {
      process.getBuiltinModule = saved
    }
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toBe(MESSAGE)
  })

  it('refuses a file path where there is no process at all', () => {
    const saved = globalThis.process
    let error: unknown
    try {
      ;(globalThis as { process?: unknown }).process = undefined
      fileSink('out/v.mp4')
    } catch (e) {
      error = e
    } finally {
      globalThis.process = saved
    }
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toBe(MESSAGE)
  })
})
