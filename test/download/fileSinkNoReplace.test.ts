import * as realFs from 'node:fs/promises'
import { lstat, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileSink } from '../../src/download/fileSink.js'
import { partialFileSink } from '../../src/download/partialFileSink.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { bytes, tempDir, withFs } from './scratch.js'

// A check that the name is free, then a rename, leaves a moment in which a
// file put at the name is replaced: with overwrite: false, the sink's last
// step itself refuses to replace anything.

/** What `finish` rejected with, or undefined when it resolved. */
async function finishError(sink: ReturnType<typeof fileSink>): Promise<unknown> {
  return sink.finish(undefined).then(
    () => undefined,
    (error: unknown) => error,
  )
}

describe('fileSink with overwrite: false', () => {
  it('a file that appears at the name during the download is kept; finish fails saying so; discard leaves only that file', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const sink = fileSink(file, { overwrite: false })
    await sink.write(bytes('the download'))
    // After any check made before the download began, before the download's last step.
    await writeFile(file, 'the user’s own')
    const error = await finishError(sink)
    expect(isGatewayError(error)).toBe(true)
    expect((error as Error).message).toBe(`${file} appeared while it was downloaded, and is not replaced (overwrite is false): the download is discarded. Move that file away, or pass overwrite: true.`)
    expect(await readFile(file, 'utf8')).toBe('the user’s own')
    await sink.discard()
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('a link that appears at the name (a dangling one too) is kept as it was, not followed', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const sink = fileSink(file, { overwrite: false })
    await sink.write(bytes('the download'))
    await symlink(join(dir, 'nowhere'), file)
    expect(isGatewayError(await finishError(sink))).toBe(true)
    expect((await lstat(file)).isSymbolicLink()).toBe(true)
    expect(await readlink(file)).toBe(join(dir, 'nowhere'))
    await sink.discard()
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('a free name: the file is saved there, and no temporary file is left', async () => {
    const dir = await tempDir()
    const sink = fileSink(join(dir, 'v.mp4'), { overwrite: false })
    await sink.write(bytes('kite'))
    expect(await sink.finish(undefined)).toEqual({ file: join(dir, 'v.mp4') })
    expect(await readdir(dir)).toEqual(['v.mp4'])
    expect(await readFile(join(dir, 'v.mp4'), 'utf8')).toBe('kite')
  })

  it.each(['EPERM', 'ENOTSUP'])('where hard links fail with %s: an exclusive copy, which saves to a free name and keeps a taken one', async (code) => {
    const dir = await tempDir()
    const noLinks = { link: () => Promise.reject(Object.assign(new Error(`link: ${code}`), { code })) }
    const free = withFs(noLinks, () => fileSink(join(dir, 'a.mp4'), { overwrite: false }))
    await free.write(bytes('kite'))
    expect(await free.finish(undefined)).toEqual({ file: join(dir, 'a.mp4') })
    const taken = withFs(noLinks, () => fileSink(join(dir, 'b.mp4'), { overwrite: false }))
    await taken.write(bytes('kite'))
    await writeFile(join(dir, 'b.mp4'), 'the user’s own')
    expect(isGatewayError(await finishError(taken))).toBe(true)
    await taken.discard()
    expect(await readFile(join(dir, 'b.mp4'), 'utf8')).toBe('the user’s own')
    expect((await readdir(dir)).sort()).toEqual(['a.mp4', 'b.mp4'])
  })

  it('where hard links fail and the copy fails midway (a full disk): the part of the copy is removed, nothing is left at the name', async () => {
    const dir = await tempDir()
    const fullDisk = {
      link: () => Promise.reject(Object.assign(new Error('link: EPERM'), { code: 'EPERM' })),
      copyFile: async (_from: unknown, to: unknown) => {
        await writeFile(to as string, 'half')
        throw Object.assign(new Error('copyfile: ENOSPC'), { code: 'ENOSPC' })
      },
    }
    const sink = withFs(fullDisk as Partial<typeof realFs>, () => fileSink(join(dir, 'v.mp4'), { overwrite: false }))
    await sink.write(bytes('kite'))
    expect(await finishError(sink)).toMatchObject({ message: expect.stringMatching(/ENOSPC/) as string })
    await sink.discard()
    expect(await readdir(dir)).toEqual([])
  })

  it('another failure of link is reported as a write failure naming the file', async () => {
    const dir = await tempDir()
    const sink = withFs({ link: () => Promise.reject(Object.assign(new Error('link: EACCES'), { code: 'EACCES' })) }, () => fileSink(join(dir, 'v.mp4'), { overwrite: false }))
    await sink.write(bytes('kite'))
    expect(await finishError(sink)).toMatchObject({ message: expect.stringMatching(/^Could not write the download to .*v\.mp4 \(EACCES\)/) as string })
    await sink.discard()
    expect(await readdir(dir)).toEqual([])
  })

  it.each([
    ['link', { link: () => Promise.reject(undefined) }],
    ['the copy, where hard links fail,', { link: () => Promise.reject(Object.assign(new Error('link: EPERM'), { code: 'EPERM' })), copyFile: () => Promise.reject(undefined) }],
  ])('a failure of %s that is not an Error is reported as it is, naming the file', async (_, fs) => {
    const dir = await tempDir()
    const sink = withFs(fs as Partial<typeof realFs>, () => fileSink(join(dir, 'v.mp4'), { overwrite: false }))
    await sink.write(bytes('kite'))
    expect(await finishError(sink)).toMatchObject({ message: expect.stringMatching(/^Could not write the download to .*v\.mp4 \(undefined\)\. /) as string })
    await sink.discard()
    expect(await readdir(dir)).toEqual([])
  })
})

describe('partialFileSink (keepPartial) with overwrite: false', () => {
  it('a file at the name is kept, and so is the part, to be finished once that file is moved', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const sink = partialFileSink(file, 'https://cdn.test/v.mp4', { overwrite: false })
    await sink.write(bytes('kite'))
    await writeFile(file, 'the user’s own')
    expect(await finishError(sink)).toMatchObject({ message: expect.stringContaining('is not replaced (overwrite is false)') as string })
    await sink.discard()
    expect(await readFile(file, 'utf8')).toBe('the user’s own')
    expect(await readFile(`${file}.part`, 'utf8')).toBe('kite')
  })

  it('a free name: the part becomes the file', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const sink = partialFileSink(file, 'https://cdn.test/v.mp4', { overwrite: false })
    await sink.write(bytes('kite'))
    expect(await sink.finish(undefined)).toEqual({ file })
    expect(await readFile(file, 'utf8')).toBe('kite')
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([])
  })
})

describe('fileSink by default (overwrite: true)', () => {
  it('replaces a file at the name, as download$ to a path the caller chose does', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    await writeFile(file, 'old')
    const sink = fileSink(file)
    await sink.write(bytes('new'))
    await sink.finish(undefined)
    expect(await readFile(file, 'utf8')).toBe('new')
  })
})
