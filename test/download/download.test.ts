import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import type { DownloadEvent, DownloadSaved } from '../../src/download/types.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isHttpError } from '../../src/errors/HttpError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isResultExpiredError } from '../../src/errors/ResultExpiredError.js'
import { VirtualClock } from '../helpers/clock.js'
import { collect, observe } from '../helpers/collect.js'
import { fakeGateway } from '../helpers/fakeTransport.js'
import { startServer, waitFor, within } from '../helpers/server.js'
import { fileHost, type FileHost } from './fileHost.js'
import { filesLeft } from '../helpers/dir.js'
import { tempDir } from './scratch.js'

const saved = (values: DownloadEvent[]) => values.at(-1) as DownloadSaved

/** The options a user passes to download from a host on this machine: the host named in `allowHosts`. */
const local = (host: FileHost) => ({ allowHosts: [host.server.url] })

describe('download$ to a file', () => {
  it('saves the bytes, emitting progress up to the total, then saved', async () => {
    const host = await fileHost()
    const dir = await tempDir()
    const { values, completed } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(completed).toBe(true)
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
    const progress = values.filter((e) => e.type === 'progress')
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.map((e) => e.bytes)).toEqual([...progress.map((e) => e.bytes)].sort((a, b) => a - b))
    expect(progress.at(-1)).toEqual({ type: 'progress', bytes: host.bytes.length, total: host.bytes.length, fraction: 1 })
    expect(saved(values)).toEqual({ type: 'saved', bytes: host.bytes.length, file: join(dir, 'v.mp4'), resumed: 0, restarted: 0 })
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('never sends an Authorization header (result URLs are signed)', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 50_000 : undefined) })
    const dir = await tempDir()
    await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(host.requests).toHaveLength(2)
    for (const r of host.requests) expect(r.headers.authorization).toBeUndefined()
  })

  it('a transfer dropped halfway resumes with Range where it broke; the bytes equal the source', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 100_000 : undefined) })
    const dir = await tempDir()
    const { values, completed } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(completed).toBe(true)
    expect(host.requests).toHaveLength(2)
    expect(host.requests[0]!.headers.range).toBeUndefined()
    const from = Number(/^bytes=(\d+)-$/.exec(String(host.requests[1]!.headers.range))?.[1])
    expect(from).toBeGreaterThan(0)
    expect(from).toBeLessThanOrEqual(100_000)
    expect(saved(values)).toMatchObject({ resumed: 1, restarted: 0, bytes: host.bytes.length })
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })

  it('starts over from byte 0 when the server does not serve ranges', async () => {
    const host = await fileHost({ ranges: false, dropAt: (n) => (n === 1 ? 100_000 : undefined) })
    const dir = await tempDir()
    const { values } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(host.requests[1]!.headers.range).toBeUndefined()
    expect(saved(values)).toMatchObject({ resumed: 0, restarted: 1 })
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
  })

  it('starts over when the server ignores Range (a 200 to a ranged request)', async () => {
    const host = await fileHost({ ignoreRange: true, dropAt: (n) => (n === 1 ? 100_000 : undefined) })
    const dir = await tempDir()
    const { values } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(host.requests).toHaveLength(2)
    expect(host.requests[1]!.headers.range).toMatch(/^bytes=\d+-$/)
    expect(saved(values)).toMatchObject({ resumed: 0, restarted: 1 })
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
  })

  it('does not trust a 206 whose Content-Range is not the range asked for: it starts over', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 100_000 : undefined), contentRange: (n, start) => (n === 2 ? `bytes ${start + 10}-199999/200000` : undefined) })
    const dir = await tempDir()
    const { values } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(host.requests).toHaveLength(3)
    expect(host.requests[2]!.headers.range).toBeUndefined()
    expect(saved(values)).toMatchObject({ resumed: 0, restarted: 1 })
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
  })

  it('gives up after `retries` breaks in a row: ConnectionError, and no file under any name', async () => {
    const host = await fileHost({ dropAt: () => 0 })
    const dir = await tempDir()
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), { ...local(host), retries: 1 }))
    expect(isConnectionError(error)).toBe(true)
    expect(host.requests).toHaveLength(2)
    await filesLeft(dir)
    expect(await readdir(dir)).toEqual([])
  })

  it('an HTTP error is not retried: HttpError with the path only (not the signature), no file', async () => {
    const host = await fileHost({ status: () => 404 })
    const dir = await tempDir()
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(isHttpError(error) && error.status).toBe(404)
    expect(String((error as Error).message)).toContain('/files/result.mp4')
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain('secret-signature')
    expect(host.requests).toHaveLength(1)
    expect(await readdir(dir)).toEqual([])
  })

  it('a redirect the host botches (a Location that is no URL, or one with a password) leaves no signature in the error, and no file', async () => {
    for (const location of ['http://[::1?sig=t0k3n', 'http://u:pw@{host}/b?sig=t0k3n']) {
      const server = await startServer((req, res) => res.writeHead(302, { location: location.replace('{host}', String(req.headers.host)) }).end())
      const dir = await tempDir()
      const { error } = await collect(download$(`${server.url}/v.mp4?sig=secret-signature`, join(dir, 'v.mp4'), { allowHosts: [server.url], retries: 0 }))
      expect(isGatewayError(error)).toBe(true)
      expect(inspect(error, { depth: 10, showHidden: true }) + JSON.stringify(error)).not.toMatch(/secret-signature|t0k3n|pw@/)
      expect(await readdir(dir)).toEqual([])
    }
  })

  it('a 410 is ResultExpiredError (requested: true)', async () => {
    const host = await fileHost({ status: () => 410 })
    const { error } = await collect(download$(host.url, { blob: true }, local(host)))
    expect(isResultExpiredError(error) && error.requested).toBe(true)
  })

  it('a file that cannot be written ends in a GatewayError naming the file and what to do, and leaves nothing behind', async () => {
    const host = await fileHost()
    const dir = await tempDir()
    // The folder to save into is a file: the file system refuses it.
    await writeFile(join(dir, 'taken'), 'x')
    const { error } = await collect(download$(host.url, join(dir, 'taken', 'v.mp4'), local(host)))
    expect(isGatewayError(error)).toBe(true)
    expect((error as Error).message).toMatch(/^Could not write the download to .*taken\/v\.mp4 \((ENOTDIR|EEXIST)\)\. .*download it again before the URL expires\.$/)
    expect(await readdir(dir)).toEqual(['taken'])
  })

  it('unsubscribing mid-transfer aborts the request (the server sees the close) and leaves no file behind', async () => {
    const host = await fileHost({ stallAt: () => 100_000 })
    const dir = await tempDir()
    const o = observe(download$(host.url, join(dir, 'v.mp4'), local(host)))
    await waitFor(() => o.values.some((e) => e.type === 'progress' && e.bytes >= 100_000), 3_000, 'half the file')
    expect((await readdir(dir)).filter((f) => f.endsWith('.part'))).toHaveLength(1)
    o.subscription.unsubscribe()
    await within(host.requests[0]!.closedEarly, 3_000, 'the server seeing the close')
    await filesLeft(dir)
    expect(await readdir(dir)).toEqual([])
  })

  it('a transfer gone silent for timeoutMs is aborted and resumed (timer on the injected scheduler)', async () => {
    const host = await fileHost({ stallAt: (n) => (n === 1 ? 100_000 : undefined) })
    const dir = await tempDir()
    const clock = new VirtualClock()
    const o = observe(download$(host.url, join(dir, 'v.mp4'), { ...local(host), scheduler: clock, timeoutMs: 5_000 }))
    await waitFor(() => o.values.some((e) => e.type === 'progress' && e.bytes >= 100_000), 3_000, 'half the file')
    clock.advance(4_999)
    expect(host.requests).toHaveLength(1)
    clock.advance(1)
    await within(host.requests[0]!.closedEarly, 3_000, 'the stalled request aborted')
    const { values, completed } = await within(o.done, 3_000, 'the resumed download')
    expect(completed).toBe(true)
    expect(host.requests[1]!.headers.range).toBe('bytes=100000-')
    expect(saved(values)).toMatchObject({ resumed: 1, restarted: 0 })
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
  })
})

describe('download$ of a compressed reply (Content-Encoding: gzip)', () => {
  it('saves the decoded bytes; the compressed Content-Length is no total', async () => {
    const host = await fileHost({ gzip: true })
    const dir = await tempDir()
    const { values, completed, error } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(error).toBeUndefined()
    expect(completed).toBe(true)
    expect(host.requests).toHaveLength(1)
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
    const progress = values.filter((e) => e.type === 'progress')
    expect(progress.every((e) => e.total === undefined && e.fraction === undefined)).toBe(true)
    expect(progress.at(-1)).toMatchObject({ bytes: host.bytes.length })
    expect(saved(values)).toMatchObject({ bytes: host.bytes.length, resumed: 0, restarted: 0 })
  })

  it('a break mid-body starts over from byte 0 without Range: compressed bytes never follow decoded ones', async () => {
    const host = await fileHost({ gzip: true, dropAt: (n) => (n === 1 ? 50_000 : undefined) })
    const dir = await tempDir()
    const { values, completed } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(completed).toBe(true)
    expect(host.requests).toHaveLength(2)
    expect(host.requests[1]!.headers.range).toBeUndefined()
    // `restarted` counts decoded bytes thrown away: 1, or 0 when the break came before the decoder had written any (a loaded machine).
    expect(saved(values)).toMatchObject({ resumed: 0, restarted: expect.toSatisfy((n: number) => n === 0 || n === 1), bytes: host.bytes.length })
    expectBytes(await readFile(join(dir, 'v.mp4')), host.bytes)
  })
})

describe('download$ expiry', () => {
  it('an expiresAt in the past fails at once with ResultExpiredError, before any request', async () => {
    const host = await fileHost()
    const dir = await tempDir()
    const expiresAt = new Date(Date.now() - 1_000)
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), { ...local(host), expiresAt }))
    expect(isResultExpiredError(error)).toBe(true)
    expect(error).toMatchObject({ requested: false, expiresAt, path: '/files/result.mp4' })
    expect((error as Error).message).not.toContain('secret-signature')
    expect(host.requests).toHaveLength(0)
    expect(await readdir(dir)).toEqual([])
  })

  it('judges expiry by the injected scheduler', async () => {
    const clock = new VirtualClock()
    clock.advance(10_000)
    const { error } = await collect(download$('http://127.0.0.1:9/x.mp4', { blob: true }, { expiresAt: 10_000, scheduler: clock }))
    expect(isResultExpiredError(error)).toBe(true)
  })
})

describe('download$ to other targets', () => {
  it('a Writable gets the bytes and is ended', async () => {
    const host = await fileHost()
    const sink = new PassThrough()
    const chunks: Buffer[] = []
    sink.on('data', (c: Buffer) => chunks.push(c))
    const ended = new Promise((resolve) => sink.on('end', resolve))
    const { values } = await collect(download$(host.url, sink, local(host)))
    await ended
    expectBytes(Buffer.concat(chunks), host.bytes)
    expect(saved(values)).toEqual({ type: 'saved', bytes: host.bytes.length, resumed: 0, restarted: 0 })
  })

  it('a Writable cannot start over: with a server that does not serve ranges a break is an error', async () => {
    const host = await fileHost({ ranges: false, dropAt: (n) => (n === 1 ? 100_000 : undefined) })
    const sink = new PassThrough()
    sink.resume()
    const { error } = await collect(download$(host.url, sink, local(host)))
    expect((error as Error).message).toMatch(/cannot be rewound/)
  })

  it('a Blob holds the bytes, typed from the reply, and resumes like a file', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 70_000 : undefined) })
    const { values } = await collect(download$(host.url, { blob: true }, local(host)))
    const { blob, resumed } = saved(values)
    expect(resumed).toBe(1)
    expect(blob!.type).toBe('video/mp4')
    expectBytes(Buffer.from(await blob!.arrayBuffer()), host.bytes)
  })

  it('refuses what is not an http(s) URL, or not a target, with InvalidRequestError', async () => {
    expect(isInvalidRequestError((await collect(download$('file:///etc/passwd', { blob: true }))).error)).toBe(true)
    expect(isInvalidRequestError((await collect(download$('http://127.0.0.1:9/x', 42 as never))).error)).toBe(true)
  })
})

describe('download$ checks its arguments before any request', () => {
  const refusal = async (url: string, options: Parameters<typeof download$>[2] = {}) => {
    const gw = fakeGateway(() => ({ status: 200, body: 'x' }))
    const { error } = await collect(download$(url, { blob: true }, { ...options, transport: gw.transport }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(gw.requests).toHaveLength(0)
    return error as Error & { issues: unknown }
  }

  it('refuses an overwrite that is not a boolean', async () => {
    expect((await refusal('https://cdn.example/v.mp4', { overwrite: 'no' as never })).issues).toEqual([{ path: 'overwrite', message: 'must be a boolean (got string)' }])
  })

  it.each(['not a url', 'file:///etc/passwd', 'ftp://cdn.example/v.mp4', 'xhttps://cdn.example/v.mp4', 'httpx://cdn.example/v.mp4'])('refuses %j: only http(s) URLs', async (url) => {
    const error = await refusal(url)
    expect(error.message).toBe('Invalid download: url: must be an http:// or https:// URL. Nothing was sent.')
    expect(error.issues).toEqual([{ path: 'url', message: 'must be an http:// or https:// URL' }])
  })

  it.each([-1, 1.5, Number.NaN])('refuses retries %s', async (retries) => {
    const error = await refusal('https://cdn.example/v.mp4', { retries })
    expect(error.message).toBe(`Invalid download: retries: must be an integer of at least 0 (got ${retries}). Nothing was sent.`)
    expect(error.issues).toEqual([{ path: 'retries', message: `must be an integer of at least 0 (got ${retries})` }])
  })

  it.each([[['files internal']], [['http://127.0.0.1:8080/v1']], ['127.0.0.1' as never]])('refuses allowHosts %j', async (allowHosts) => {
    const error = await refusal('https://cdn.example/v.mp4', { allowHosts })
    expect(error.issues).toEqual([expect.objectContaining({ path: expect.stringMatching(/^allowHosts/) })])
  })

  it('refuses an allowPrivateNetwork that is not a boolean', async () => {
    const error = await refusal('https://cdn.example/v.mp4', { allowPrivateNetwork: 'yes' as never })
    expect(error.issues).toEqual([{ path: 'allowPrivateNetwork', message: 'must be true or false (got string)' }])
  })

  it('takes retries 0 and http:// as well as https://', async () => {
    for (const url of ['http://cdn.example/v.mp4', 'https://cdn.example/v.mp4']) {
      const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
      const { values, completed } = await collect(download$(url, { blob: true }, { retries: 0, transport: gw.transport }))
      expect(completed).toBe(true)
      expect(saved(values).bytes).toBe(4)
    }
  })

  it('an expiresAt given as text is read as a date', async () => {
    const clock = new VirtualClock()
    clock.advance(10_000)
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
    const past = await collect(download$('https://cdn.example/v.mp4', { blob: true }, { expiresAt: new Date(9_999).toISOString(), scheduler: clock, transport: gw.transport }))
    expect(isResultExpiredError(past.error)).toBe(true)
    expect(past.error).toMatchObject({ requested: false, expiresAt: new Date(9_999) })
    expect(gw.requests).toHaveLength(0)
    const future = await collect(download$('https://cdn.example/v.mp4', { blob: true }, { expiresAt: new Date(10_001).toISOString(), scheduler: clock, transport: gw.transport }))
    expect(future.completed).toBe(true)
    expect(gw.requests).toHaveLength(1)
  })

  it.each([
    ['soon', 'must be a Date, a time in ms or a date string (got "soon")'],
    [new Date('garbage'), 'must be a Date, a time in ms or a date string (got an invalid Date)'],
    [Number.NaN, 'must be a Date, a time in ms or a date string (got NaN)'],
    [Number.POSITIVE_INFINITY, 'must be a Date, a time in ms or a date string (got Infinity)'],
    [null as never, 'must be a Date, a time in ms or a date string (got null)'],
    [true as never, 'must be a Date, a time in ms or a date string (got true)'],
  ])('refuses an expiresAt that cannot be read (%s): ignoring it would skip the expiry check', async (expiresAt, message) => {
    const error = await refusal('https://cdn.example/v.mp4', { expiresAt })
    expect(error.issues).toEqual([{ path: 'expiresAt', message }])
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5000' as never])('refuses timeoutMs %s: an integer of ms from 1 to 2^31-1', async (timeoutMs) => {
    const error = await refusal('https://cdn.example/v.mp4', { timeoutMs })
    expect(error.issues).toEqual([{ path: 'timeoutMs', message: expect.stringMatching(/^must be an integer of milliseconds from 1 to 2147483647 \(got /) }])
  })

  it('takes timeoutMs 1 and 2^31-1', async () => {
    for (const timeoutMs of [1, 2 ** 31 - 1]) {
      const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
      const { completed } = await collect(download$('https://cdn.example/v.mp4', { blob: true }, { timeoutMs, transport: gw.transport }))
      expect(completed).toBe(true)
    }
  })
})

describe('download$ to a Writable the caller keeps', () => {
  it('with end: false the Writable gets the bytes and is left open', async () => {
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
    const sink = new PassThrough()
    const chunks: Buffer[] = []
    sink.on('data', (c: Buffer) => chunks.push(c))
    const { completed } = await collect(download$('https://cdn.example/v.mp4', sink, { end: false, transport: gw.transport }))
    expect(completed).toBe(true)
    expect(Buffer.concat(chunks).toString()).toBe('kite')
    expect(sink.writableEnded).toBe(false)
  })
})

/** Byte equality in one step (a deep equal of 200 KB walks every byte in JS). */
function expectBytes(actual: Buffer, expected: Buffer): void {
  expect(actual.length).toBe(expected.length)
  expect(actual.equals(expected), 'the bytes differ').toBe(true)
}
