import * as realFs from 'node:fs/promises'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { partialFileSink } from '../../src/download/partialFileSink.js'
import { writePartVersion } from '../../src/download/partVersion.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isInvalidRequestError, type InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { bytes, tempDir, withFs } from './scratch.js'

const URL_ = 'https://cdn.test/files/v.mp4?sig=one'
const VERSION = { validator: '"v1"', version: '"v1"\n' }

/** A folder with `v.mp4.part` holding `part` and, unless `total` is null, its record of that total. */
async function leftBehind(part: string, total: number | undefined | null): Promise<{ dir: string; file: string }> {
  const dir = await tempDir()
  const file = join(dir, 'v.mp4')
  await writeFile(`${file}.part`, part)
  if (total !== null) await writePartVersion(realFs, file, URL_, { ...VERSION, total })
  return { dir, file }
}

async function text(source: AsyncIterable<Uint8Array>): Promise<string> {
  const pieces: Uint8Array[] = []
  for await (const piece of source) pieces.push(piece)
  return Buffer.concat(pieces).toString('utf8')
}

describe('partialFileSink: what an earlier download left', () => {
  it('bytes of a recorded version short of its total are continued: the next byte is written after them', async () => {
    const { file } = await leftBehind('kite', 8)
    const sink = partialFileSink(file, URL_)
    const left = await sink.leftover!()
    expect(left).toMatchObject({ ...VERSION, total: 8, bytes: 4 })
    expect(await text(left!.read())).toBe('kite')
    await sink.write(bytes('kite'))
    await sink.finish(undefined)
    expect(await readFile(file, 'utf8')).toBe('kitekite')
  })

  it('bytes of a recorded version of unknown size are continued', async () => {
    const { file } = await leftBehind('kite', undefined)
    const sink = partialFileSink(file, URL_)
    expect(await sink.leftover!()).toMatchObject({ ...VERSION, total: undefined, bytes: 4 })
    await sink.discard()
  })

  it.each([
    ['a part without a record', 'kite', null],
    ['an empty part', '', 8],
    ['a part as long as its total (nothing left to ask for)', 'kitekite', 8],
  ])('%s begins clean: no leftover, the part emptied, no record', async (_, part, total) => {
    const { file } = await leftBehind(part, total)
    const sink = partialFileSink(file, URL_)
    expect(await sink.leftover!()).toBeUndefined()
    expect(await readFile(`${file}.part`, 'utf8')).toBe('')
    await expect(readFile(`${file}.part.json`)).rejects.toMatchObject({ code: 'ENOENT' })
    await sink.discard()
  })
})

describe('partialFileSink: one writer per target', () => {
  it('a second sink of a target in use is refused with InvalidRequestError at target; once discarded, the target is free', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const first = partialFileSink(file, URL_)
    const error = (() => {
      try {
        partialFileSink(file, URL_)
      } catch (e) {
        return e as InvalidRequestError
      }
    })()
    expect(isInvalidRequestError(error)).toBe(true)
    expect(error!.issues).toEqual([{ path: 'target', message: `${file} is being downloaded by another download$ of this process; wait for it to end` }])
    expect(error!.message).toBe(`Invalid download target: target: ${file} is being downloaded by another download$ of this process; wait for it to end. Nothing was sent.`)
    await first.discard()
    await partialFileSink(file, URL_).discard()
  })

  it('opens the part once for the whole download', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const opened: string[] = []
    const open = ((path: string, flags: number) => (opened.push(path), realFs.open(path, flags))) as typeof realFs.open
    const sink = withFs({ open }, () => partialFileSink(file, URL_))
    await sink.leftover!()
    await sink.write(bytes('ki'))
    await sink.write(bytes('te'))
    await sink.finish(undefined)
    expect(opened.filter((path) => path === `${file}.part`)).toHaveLength(1)
    expect(await readFile(file, 'utf8')).toBe('kite')
  })
})

describe('partialFileSink: failures and the end', () => {
  it('by default, replaces a file at the name', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    await writeFile(file, 'old')
    const sink = partialFileSink(file, URL_)
    await sink.write(bytes('kite'))
    await sink.finish(undefined)
    expect(await readFile(file, 'utf8')).toBe('kite')
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('a file system refusal names the part file and says what to do', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'taken'), 'x')
    const file = join(dir, 'taken', 'v.mp4')
    const error = await partialFileSink(file, URL_)
      .write(bytes('kite'))
      .catch((e: unknown) => e)
    expect(isGatewayError(error)).toBe(true)
    const code = /\((E[A-Z]+)\)/.exec((error as Error).message)?.[1]
    expect((error as Error).message).toBe(`Could not write the download to ${file}.part (${code}). Free some space or choose another folder, and download it again before the URL expires.`)
  })

  it('once discarded, takes no more bytes: the part keeps what it had', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const sink = partialFileSink(file, URL_)
    await sink.write(bytes('kite'))
    void sink.discard()
    await expect(sink.write(bytes('late'))).rejects.toThrow(/^the download was given up$/)
    expect(await readFile(`${file}.part`, 'utf8')).toBe('kite')
  })

  it('once finished, takes no more bytes and makes no new part', async () => {
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const sink = partialFileSink(file, URL_)
    await sink.write(bytes('kite'))
    await sink.finish(undefined)
    await expect(sink.write(bytes('late'))).rejects.toThrow(/^the download was given up$/)
    await sink.discard()
    expect(await readdir(dir)).toEqual(['v.mp4'])
    expect(await readFile(file, 'utf8')).toBe('kite')
  })

  it('discard of bytes known to be wrong removes the part and its record, even before the part was opened', async () => {
    const { dir, file } = await leftBehind('kite', 8)
    await partialFileSink(file, URL_).discard(true)
    expect(await readdir(dir)).toEqual([])
  })
})
