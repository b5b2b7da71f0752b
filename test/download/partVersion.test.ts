import * as fs from 'node:fs/promises'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readPart, readPartVersion, writePartVersion } from '../../src/download/partVersion.js'
import { tempDir } from './scratch.js'

const URL_ = 'https://cdn.example/files/kite.mp4?sig=one'
const VERSION = { validator: '"abc"', version: '"abc"\n', total: 2899 }
/** A record as `writePartVersion` writes it for `URL_`, with `changes`. */
const record = (changes: Record<string, unknown> = {}) => JSON.stringify({ source: 'https://cdn.example/files/kite.mp4', validator: '"abc"', version: '"abc"\n', total: 2899, ...changes })

async function recorded(text: string): Promise<string> {
  const file = join(await tempDir(), 'kite.mp4')
  await writeFile(`${file}.part.json`, text)
  return file
}

/** Every piece `readPart` yields, read for at most `most` pieces (a loop that never ends fails instead of hanging). */
async function pieces(source: AsyncIterable<Uint8Array>, most = 10): Promise<Uint8Array[]> {
  const out: Uint8Array[] = []
  for await (const piece of source) {
    out.push(piece)
    if (out.length > most) throw new Error(`more than ${most} pieces`)
  }
  return out
}

describe('writePartVersion and readPartVersion', () => {
  it('a recorded version reads back as written, for the same file signed again (another query)', async () => {
    const file = join(await tempDir(), 'kite.mp4')
    await writePartVersion(fs, file, URL_, VERSION)
    expect(JSON.parse(await readFile(`${file}.part.json`, 'utf8'))).toEqual({ source: 'https://cdn.example/files/kite.mp4', ...VERSION })
    expect(await readPartVersion(fs, file, 'https://cdn.example/files/kite.mp4?sig=two')).toEqual(VERSION)
  })

  it('a version of unknown size is recorded without a total, and reads back so', async () => {
    const file = join(await tempDir(), 'kite.mp4')
    await writePartVersion(fs, file, URL_, { ...VERSION, total: undefined })
    expect(JSON.parse(await readFile(`${file}.part.json`, 'utf8'))).not.toHaveProperty('total')
    expect(await readPartVersion(fs, file, URL_)).toEqual({ ...VERSION, total: undefined })
  })

  it('a version without a validator removes the record', async () => {
    const file = await recorded(record())
    await writePartVersion(fs, file, URL_, { ...VERSION, validator: undefined })
    await expect(readFile(`${file}.part.json`)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('closes the record it wrote', async () => {
    const file = join(await tempDir(), 'kite.mp4')
    const closed: boolean[] = []
    const open = async (...args: Parameters<typeof fs.open>) => {
      const handle = await fs.open(...args)
      const close = handle.close.bind(handle)
      closed.push(false)
      const at = closed.length - 1
      return Object.assign(handle, { close: () => ((closed[at] = true), close()) })
    }
    await writePartVersion({ ...fs, open } as typeof fs, file, URL_, VERSION)
    expect(closed).toEqual([true])
  })

  it.each([
    ['another path', { source: 'https://cdn.example/files/other.mp4' }],
    ['another host', { source: 'https://evil.example/files/kite.mp4' }],
    ['no validator', { validator: undefined }],
    ['a validator that is not a string', { validator: 7 }],
    ['no version', { version: undefined }],
    ['a version that is not a string', { version: 7 }],
    ['a total of 0', { total: 0 }],
    ['a negative total', { total: -5 }],
    ['a total that is not a whole number', { total: 2899.5 }],
    ['a total written as a string', { total: '2899' }],
    ['a total past the safe integers', { total: 2 ** 53 }],
  ])('a record with %s is not trusted', async (_, changes) => {
    expect(await readPartVersion(fs, await recorded(record(changes)), URL_)).toBeUndefined()
  })

  it('a missing or torn record is not trusted', async () => {
    expect(await readPartVersion(fs, join(await tempDir(), 'kite.mp4'), URL_)).toBeUndefined()
    expect(await readPartVersion(fs, await recorded(record().slice(0, 20)), URL_)).toBeUndefined()
  })
})

describe('readPart', () => {
  it('yields exactly the first `length` bytes of a longer file, in pieces of at most 64 KB', async () => {
    const file = join(await tempDir(), 'kite.mp4.part')
    const bytes = Buffer.alloc(70_100, 7)
    bytes.fill(1, 70_000)
    await writeFile(file, bytes)
    const handle = await fs.open(file, 'r')
    try {
      const got = await pieces(readPart(handle, 70_000))
      expect(got.map((p) => p.byteLength)).toEqual([65_536, 4_464])
      expect(Buffer.concat(got).equals(bytes.subarray(0, 70_000))).toBe(true)
      expect(Buffer.concat(await pieces(readPart(handle, 60))).equals(bytes.subarray(0, 60))).toBe(true)
    } finally {
      await handle.close()
    }
  })

  it('fails when the file is shorter than `length`, naming the length', async () => {
    const file = join(await tempDir(), 'kite.mp4.part')
    await writeFile(file, Buffer.alloc(100))
    const handle = await fs.open(file, 'r')
    try {
      await expect(pieces(readPart(handle, 150))).rejects.toThrow(/^the partial file is shorter than the 150 bytes it held when opened$/)
    } finally {
      await handle.close()
    }
  })
})
