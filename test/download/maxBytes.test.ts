import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { of } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import { DEFAULT_MAX_BLOB_BYTES, DEFAULT_MAX_BYTES, maxBytesOf } from '../../src/download/maxBytes.js'
import { saveResults } from '../../src/download/saveResults.js'
import type { DownloadEvent, DownloadSaved, DownloadTarget } from '../../src/download/types.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isPayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { collect } from '../helpers/collect.js'
import { filesLeft } from '../helpers/dir.js'
import { startServer, within, type TestServer } from '../helpers/server.js'
import { fileHost } from './fileHost.js'
import { tempDir } from './scratch.js'

const local = (server: TestServer) => ({ allowHosts: [server.url] })
const url = (server: TestServer) => `${server.url}/files/bomb.mp4?sig=secret-signature`

/** 5 MB of zeros, gzip-compressed to a few KB, sent compressed whatever the request asks. */
async function gzipBomb(): Promise<TestServer> {
  const bomb = gzipSync(Buffer.alloc(5_000_000))
  return startServer((_, res) => res.writeHead(200, { 'content-type': 'video/mp4', 'content-encoding': 'gzip', 'content-length': bomb.length }).end(bomb))
}

/** The failure must be a PayloadTooLargeError of `maxBytes`, at `limit`. */
function expectTooLarge(error: unknown, limit: number): void {
  expect(isPayloadTooLargeError(error)).toBe(true)
  expect(error).toMatchObject({ limit: 'maxBytes', limitBytes: limit, method: 'GET', path: '/files/bomb.mp4' })
  expect(String((error as Error).message)).not.toContain('secret-signature')
}

describe('download$ maxBytes', () => {
  it('a gzip bomb past maxBytes fails with PayloadTooLargeError, on one request, and leaves no file', async () => {
    const server = await gzipBomb()
    const dir = await tempDir()
    const { error, values } = await collect(download$(url(server), join(dir, 'v.mp4'), { ...local(server), maxBytes: 1_000_000 }))
    expectTooLarge(error, 1_000_000)
    expect(server.requests).toHaveLength(1)
    // Nothing past the limit was ever written.
    expect(Math.max(0, ...values.map((e) => e.bytes))).toBeLessThanOrEqual(1_000_000)
    expect(await filesLeft(dir)).toEqual([])
  })

  it('a gzip bomb into a Blob stops at maxBytes too (decoded bytes are counted)', async () => {
    const server = await gzipBomb()
    const { error } = await collect(download$(url(server), { blob: true }, { ...local(server), maxBytes: 1_000_000 }))
    expectTooLarge(error, 1_000_000)
  })

  it('a chunked body of no Content-Length past maxBytes fails, and keepPartial keeps no .part to resume into the same failure', async () => {
    const server = await startServer((_, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'accept-ranges': 'bytes', etag: '"v1"' })
      for (let i = 0; i < 4; i++) res.write(Buffer.alloc(400_000, i))
      res.end()
    })
    for (const keepPartial of [false, true]) {
      const dir = await tempDir()
      const { error } = await collect(download$(url(server), join(dir, 'v.mp4'), { ...local(server), maxBytes: 1_000_000, keepPartial }))
      expectTooLarge(error, 1_000_000)
      expect(await filesLeft(dir)).toEqual([])
    }
  })

  it('a Content-Length above maxBytes is refused before the body is read: no byte written, the connection closed', async () => {
    const server = await startServer((_, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 10_000_000 })
      // A first piece, then nothing: a client that reads the body waits here.
      res.write(Buffer.alloc(1_000))
    })
    const dir = await tempDir()
    const { error, values } = await within(collect(download$(url(server), join(dir, 'v.mp4'), { ...local(server), maxBytes: 1_000_000 })), 2_000, 'the refusal')
    expectTooLarge(error, 1_000_000)
    expect(values).toEqual([])
    await within((await server.request(1)).closedEarly, 2_000, 'the connection closing')
    expect(await filesLeft(dir)).toEqual([])
  })

  it('a body of exactly maxBytes is saved; one byte less fails', async () => {
    const host = await fileHost({ size: 50_000 })
    const dir = await tempDir()
    const ok = await collect(download$(host.url, join(dir, 'v.mp4'), { allowHosts: [host.server.url], maxBytes: 50_000 }))
    expect(ok.completed).toBe(true)
    expect((ok.values.at(-1) as DownloadSaved).bytes).toBe(50_000)
    expect((await readFile(join(dir, 'v.mp4'))).equals(host.bytes)).toBe(true)
    const short = await collect(download$(host.url, join(dir, 'w.mp4'), { allowHosts: [host.server.url], maxBytes: 49_999 }))
    expect(isPayloadTooLargeError(short.error)).toBe(true)
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('counts the whole file across resumed ranges, not each request', async () => {
    // The first reply has no length; it breaks at 30,000, and the 206 for the rest says the file has 60,000.
    const host = await fileHost({ size: 60_000, overrun: (n) => (n === 1 ? 0 : undefined), dropAt: (n) => (n === 1 ? 30_000 : undefined) })
    const dir = await tempDir()
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), { allowHosts: [host.server.url], maxBytes: 50_000 }))
    expect(host.requests).toHaveLength(2)
    expect(host.requests[1]!.headers.range).toBe('bytes=30000-')
    expect(isPayloadTooLargeError(error)).toBe(true)
    expect(await filesLeft(dir)).toEqual([])
  })

  it('asks for the bytes as stored: Accept-Encoding: identity, on a resumed request too', async () => {
    const host = await fileHost({ size: 60_000, dropAt: (n) => (n === 1 ? 30_000 : undefined) })
    const dir = await tempDir()
    const { completed } = await collect(download$(host.url, join(dir, 'v.mp4'), { allowHosts: [host.server.url] }))
    expect(completed).toBe(true)
    expect(host.requests).toHaveLength(2)
    // A fetch adds `identity` of its own to a Range request: a list of identity alone is the same request.
    for (const r of host.requests) expect(new Set(String(r.headers['accept-encoding']).split(/\s*,\s*/))).toEqual(new Set(['identity']))
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1000', null])('refuses maxBytes %s before any request', async (bad) => {
    const host = await fileHost({ size: 1_000 })
    const { error } = await collect(download$(host.url, { blob: true }, { allowHosts: [host.server.url], maxBytes: bad as number }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['maxBytes'])
    expect(host.requests).toHaveLength(0)
  })

  it('defaults to 4 GiB for a file or a stream, and 1 GiB for a Blob held in memory', async () => {
    let announced = 0
    const server = await startServer((_, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': announced })
      res.write(Buffer.alloc(1_000))
    })
    const cases: [DownloadTarget, number][] = [
      [{ blob: true }, DEFAULT_MAX_BLOB_BYTES],
      [join(await tempDir(), 'v.mp4'), DEFAULT_MAX_BYTES],
      [{ write: (_: Uint8Array, done: () => void) => (done(), true), end: () => {} }, DEFAULT_MAX_BYTES],
    ]
    for (const [target, limit] of cases) {
      // A size just past the default is refused on the headers alone: no body of gigabytes is needed to see the limit.
      announced = limit + 1
      const { error } = await within(collect(download$(url(server), target, local(server))), 2_000, 'the refusal')
      expectTooLarge(error, limit)
    }
    expect([DEFAULT_MAX_BLOB_BYTES, DEFAULT_MAX_BYTES]).toEqual([1024 ** 3, 4 * 1024 ** 3])
    expect(maxBytesOf(undefined, { blob: true })).toBe(DEFAULT_MAX_BLOB_BYTES)
  })
})

describe('saveResults maxBytes', () => {
  const completed = (server: TestServer): TaskEvent => ({ type: 'completed', taskId: 'bomb', urls: [url(server)], taskInfo: {} as never, reply: {} as never })

  it('passes maxBytes on: a result past it fails with PayloadTooLargeError and leaves no file', async () => {
    const server = await gzipBomb()
    const dir = await tempDir()
    const { error, values } = await collect(of(completed(server)).pipe(saveResults(dir, { ...local(server), maxBytes: 1_000_000 })))
    expectTooLarge(error, 1_000_000)
    expect(values.filter((e: DownloadEvent) => e.type === 'saved')).toEqual([])
    expect(await filesLeft(dir)).toEqual([])
  })

  it('refuses a bad maxBytes at once, before any request', async () => {
    const server = await gzipBomb()
    expect(() => saveResults('out', { ...local(server), maxBytes: 0 })).toThrow(expect.objectContaining({ name: 'InvalidRequestError', issues: [expect.objectContaining({ path: 'maxBytes' })] }))
    expect(server.requests).toHaveLength(0)
  })
})
