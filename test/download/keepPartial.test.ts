import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import type { DownloadEvent, DownloadOptions, DownloadSaved } from '../../src/download/types.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { collect, observe } from '../helpers/collect.js'
import { filesLeft } from '../helpers/dir.js'
import { waitFor, within } from '../helpers/server.js'
import { fileHost, type FileHost } from './fileHost.js'
import { tempDir } from './scratch.js'

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const saved = (values: DownloadEvent[]) => values.at(-1) as DownloadSaved
const keep = (host: FileHost, more: DownloadOptions = {}): DownloadOptions => ({ allowHosts: [host.server.url], keepPartial: true, sha256: true, ...more })

/** A first download that breaks after `bytes` with no retry left: what a failed attempt leaves. */
async function leaveHalf(host: FileHost, file: string): Promise<Buffer> {
  const { error } = await collect(download$(host.url, file, keep(host, { retries: 0 })))
  expect(isConnectionError(error)).toBe(true)
  return readFile(`${file}.part`)
}

describe('download$ with keepPartial', () => {
  it('a download that fails keeps <target>.part; the next download$ asks only for the rest, with If-Range, and the file and its sha256 are right', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 80_000 : undefined) })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const part = await leaveHalf(host, file)
    expect(part.length).toBeGreaterThan(0)
    expect(part.equals(host.bytes.subarray(0, part.length))).toBe(true)
    expect((await readdir(dir)).sort()).toEqual(['v.mp4.part', 'v.mp4.part.json'])
    // The version record holds no query: the URL's signature stays off the disk.
    expect(await readFile(`${file}.part.json`, 'utf8')).not.toContain('secret-signature')

    const { values, completed } = await collect(download$(host.url, file, keep(host)))
    expect(completed).toBe(true)
    expect(host.requests).toHaveLength(2)
    expect(host.requests[1]!.headers.range).toBe(`bytes=${part.length}-`)
    expect(host.requests[1]!.headers['if-range']).toBe(`"${sha256(host.bytes).slice(0, 16)}"`)
    expect(saved(values)).toMatchObject({ fromPartial: part.length, resumed: 1, restarted: 0, bytes: host.bytes.length, sha256: sha256(host.bytes) })
    expect((await readFile(file)).equals(host.bytes)).toBe(true)
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('unsubscribing mid-transfer keeps the part, and a new download$ continues it', async () => {
    const host = await fileHost({ stallAt: (n) => (n === 1 ? 100_000 : undefined) })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const o = observe(download$(host.url, file, keep(host)))
    await waitFor(() => o.values.some((e) => e.type === 'progress' && e.bytes >= 100_000), 3_000, 'half the file')
    o.subscription.unsubscribe()
    await within(host.requests[0]!.closedEarly, 3_000, 'the server seeing the close')
    // Right after the unsubscribe, the same target may be downloaded again.
    const { values } = await collect(download$(host.url, file, keep(host)))
    expect(host.requests[1]!.headers.range).toBe('bytes=100000-')
    expect(saved(values)).toMatchObject({ fromPartial: 100_000, sha256: sha256(host.bytes) })
    expect((await readFile(file)).equals(host.bytes)).toBe(true)
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('a server that ignores Range (a 200) begins the part again from byte 0, and the digest covers only the new bytes', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 80_000 : undefined), ignoreRange: (n) => n > 1 })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    await leaveHalf(host, file)
    const { values } = await collect(download$(host.url, file, keep(host)))
    expect(host.requests[1]!.headers.range).toMatch(/^bytes=\d+-$/)
    expect(saved(values)).toMatchObject({ fromPartial: 0, resumed: 0, restarted: 1, bytes: host.bytes.length, sha256: sha256(host.bytes) })
    expect((await readFile(file)).equals(host.bytes)).toBe(true)
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('a file changed on the server (If-Range no longer matches) is downloaded whole, never spliced', async () => {
    const other = randomBytes(150_000)
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 80_000 : undefined), version: (n) => (n > 1 ? other : undefined) })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    await leaveHalf(host, file)
    const { values } = await collect(download$(host.url, file, keep(host)))
    expect(host.requests[1]!.headers['if-range']).toBeDefined()
    expect(saved(values)).toMatchObject({ fromPartial: 0, restarted: 1, bytes: other.length, sha256: sha256(other) })
    expect((await readFile(file)).equals(other)).toBe(true)
  })

  it('a part whose record names another URL, is tampered with, torn or missing is not trusted: the download begins at byte 0', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 80_000 : undefined) })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    await leaveHalf(host, file)
    const record = await readFile(`${file}.part.json`, 'utf8')
    const cases: [string, string | undefined][] = [
      ['another URL', record.replace('/files/result.mp4', '/files/other.mp4')],
      ['no validator', JSON.stringify({ ...JSON.parse(record), validator: undefined })],
      ['a version that is not a string', JSON.stringify({ ...JSON.parse(record), version: 1 })],
      ['a total that is not a whole number', JSON.stringify({ ...JSON.parse(record), total: 199_999.5 })],
      ['a total written as a string', JSON.stringify({ ...JSON.parse(record), total: '200000' })],
      ['torn', record.slice(0, 20)],
      ['missing', undefined],
    ]
    for (const [name, text] of cases) {
      await writeFile(`${file}.part`, host.bytes.subarray(0, 50_000))
      if (text === undefined) await rm(`${file}.part.json`, { force: true })
      else await writeFile(`${file}.part.json`, text)
      const from = host.requests.length
      const { values } = await collect(download$(host.url, file, keep(host)))
      expect(host.requests.slice(from).map((r) => r.headers.range), name).toEqual([undefined])
      expect(saved(values), name).toMatchObject({ fromPartial: 0, resumed: 0, restarted: 0, sha256: sha256(host.bytes) })
      expect((await readFile(file)).equals(host.bytes), name).toBe(true)
    }
  })

  it('without keepPartial, a failure leaves nothing behind', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 80_000 : undefined) })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const { error } = await collect(download$(host.url, file, { allowHosts: [host.server.url], retries: 0 }))
    expect(isConnectionError(error)).toBe(true)
    expect(await filesLeft(dir)).toEqual([])
  })
})

describe('download$ with sha256', () => {
  it('a digest that differs ends in ChecksumMismatchError, with no final file and no partial file', async () => {
    const host = await fileHost()
    const dir = await tempDir()
    const wrong = sha256(randomBytes(8))
    for (const keepPartial of [false, true]) {
      const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), { allowHosts: [host.server.url], keepPartial, sha256: wrong.toUpperCase() }))
      expect(isGatewayError(error) && error.name).toBe('ChecksumMismatchError')
      expect(error).toMatchObject({ expected: wrong, actual: sha256(host.bytes), bytes: host.bytes.length, path: '/files/result.mp4' })
      expect(await readdir(dir)).toEqual([])
    }
  })

  it('a digest that matches saves the file; a Blob is hashed too', async () => {
    const host = await fileHost()
    const dir = await tempDir()
    const { values } = await collect(download$(host.url, join(dir, 'v.mp4'), { allowHosts: [host.server.url], sha256: sha256(host.bytes) }))
    expect(saved(values).sha256).toBe(sha256(host.bytes))
    const blob = await collect(download$(host.url, { blob: true }, { allowHosts: [host.server.url], sha256: true }))
    expect(saved(blob.values).sha256).toBe(sha256(host.bytes))
  })
})

describe('download$ checks keepPartial and sha256 before any request', () => {
  it.each([
    ['keepPartial with a Blob', { blob: true } as const, { keepPartial: true }],
    ['keepPartial that is not a boolean', 'v.mp4', { keepPartial: 'yes' as never }],
    ['a sha256 that is not 64 hex digits', 'v.mp4', { sha256: 'abc' }],
    ['a sha256 of another type', 'v.mp4', { sha256: 1 as never }],
  ])('refuses %s', async (_, target, options) => {
    const host = await fileHost()
    const dir = await tempDir()
    const to = typeof target === 'string' ? join(dir, target) : target
    const { error } = await collect(download$(host.url, to, { allowHosts: [host.server.url], ...options }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(host.requests).toHaveLength(0)
  })

  it('refuses a second download of the same target in this process while the first runs', async () => {
    const host = await fileHost({ stallAt: () => 1_000 })
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const first = observe(download$(host.url, file, keep(host)))
    const { error } = await collect(download$(host.url, file, keep(host)))
    expect(isInvalidRequestError(error)).toBe(true)
    first.subscription.unsubscribe()
  })

  it('does not write through a link planted under the part name', async () => {
    const host = await fileHost()
    const dir = await tempDir()
    await writeFile(join(dir, 'victim'), 'untouched')
    await symlink(join(dir, 'victim'), join(dir, 'v.mp4.part'))
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), keep(host)))
    expect(isGatewayError(error)).toBe(true)
    expect(await readFile(join(dir, 'victim'), 'utf8')).toBe('untouched')
    expect((await readdir(dir)).sort()).toEqual(['v.mp4.part', 'victim'])
  })
})
