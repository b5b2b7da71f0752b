import { Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import type { Sink } from '../../src/download/sinkTypes.js'
import { Transfer } from '../../src/download/transfer.js'
import type { DownloadEvent, DownloadOptions, DownloadSaved } from '../../src/download/types.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isPayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { VirtualClock, settle } from '../helpers/clock.js'
import { observe, type Observed } from '../helpers/collect.js'
import { fakeGateway, networkError, type FakeReply, type SeenRequest } from '../helpers/fakeTransport.js'

// What a reply announces (Content-Length, Content-Range and its total) bounds what is read of it and what counts as the whole file.

const URL_ = 'https://cdn.example/files/clip.mp4?sig=secret-signature'
const V1 = '"v1"'

function* breaking(...chunks: string[]): Generator<string> {
  yield* chunks
  throw networkError('ECONNRESET')
}

/** A 200 of 10 bytes with ranges and an ETag. */
const whole = (body: FakeReply['body'], headers: Record<string, string> = {}): FakeReply => ({
  status: 200,
  headers: { 'content-length': '10', 'accept-ranges': 'bytes', etag: V1, ...headers },
  body,
})

/** A 206 of `range`, its Content-Length left out (a chunked body may then run past the range). */
const part = (range: string, body: FakeReply['body'], headers: Record<string, string> = {}): FakeReply => ({ status: 206, headers: { 'content-range': range, etag: V1, ...headers }, body })

function start(answer: (req: SeenRequest) => FakeReply | Error, options: DownloadOptions = {}) {
  const clock = new VirtualClock()
  const gw = fakeGateway(answer)
  const o = observe(download$(URL_, { blob: true }, { transport: gw.transport, scheduler: clock, ...options }))
  return { gw, clock, o }
}

/** Lets the download run to its end, retry waits included (virtual time). */
async function ended(o: Observed<DownloadEvent>, clock: VirtualClock): Promise<void> {
  for (let i = 0; i < 20 && !o.completed && o.error === undefined; i++) {
    for (let j = 0; j < 50 && !o.completed && o.error === undefined; j++) await settle(1)
    await clock.run(10_000)
  }
}

const saved = (o: Observed<DownloadEvent>) => o.values.find((e): e is DownloadSaved => e.type === 'saved')
const progress = (o: Observed<DownloadEvent>) => o.values.filter((e) => e.type === 'progress').map((e) => (e.type === 'progress' ? e.bytes : -1))

describe('download$: an announced size past maxBytes is refused before a byte of the body is read', () => {
  it.each([
    ['whose Content-Range total is past it (the range within)', 'bytes 0-9/100'],
    ['whose Content-Range end is past it (the total not given)', 'bytes 0-99/*'],
  ])('a 206 %s: PayloadTooLargeError, nothing written', async (_, range) => {
    const chunks = Array.from({ length: 10 }, () => '0123456789').slice(0, range.endsWith('/*') ? 10 : 1)
    const { gw, clock, o } = start(() => part(range, chunks), { maxBytes: 50, retries: 0 })
    await ended(o, clock)
    expect(isPayloadTooLargeError(o.error)).toBe(true)
    expect(progress(o)).toEqual([])
    expect(gw.request(1).aborted).toBe(true)
  })
})

describe('download$: no byte past what the reply announced', () => {
  it('a 206 that runs past its Content-Range end (short of the file size) fails at that end', async () => {
    const { o, clock } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : part('bytes 4-7/10', ['EFGHIJ'])), { retries: 1 })
    await ended(o, clock)
    expect(isGatewayError(o.error)).toBe(true)
    expect((o.error as Error).message).toMatch(/^GET \/files\/clip\.mp4: the server sent more than the 8 bytes it announced/)
    expect(saved(o)).toBeUndefined()
    expect(progress(o)).toEqual([4])
  })

  it('a 206 whose range runs past the size the file was first given (its total not repeated) fails at that size', async () => {
    const { o, clock } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : part('bytes 4-11/*', ['EFGHIJKL'])), { retries: 1 })
    await ended(o, clock)
    expect((o.error as Error).message).toMatch(/^GET \/files\/clip\.mp4: the server sent more than the 10 bytes it announced/)
    expect(saved(o)).toBeUndefined()
  })

  it('a 206 that ends at its Content-Range end, short of the file size, is a break: the rest is asked for', async () => {
    const { gw, clock, o } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : req.n === 2 ? part('bytes 4-7/10', ['EFGH']) : part('bytes 8-9/10', ['IJ'])))
    await ended(o, clock)
    expect(gw.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=4-', 'bytes=8-'])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 2 })
    expect(await saved(o)!.blob!.text()).toBe('ABCDEFGHIJ')
  })
})

describe('download$: a file that changed during the download', () => {
  it('with no retry left, fails with a ConnectionError that says so, sent, after starting over', async () => {
    const { gw, clock, o } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : part('bytes 4-9/10', ['efghij'], { etag: '"v2"' })), { retries: 1 })
    await ended(o, clock)
    expect(gw.requests).toHaveLength(2)
    expect(isConnectionError(o.error)).toBe(true)
    expect(o.error).toMatchObject({
      method: 'GET',
      path: '/files/clip.mp4',
      sent: true,
      message: 'GET /files/clip.mp4: the file changed on the server during the download (its ETag, Last-Modified or size differ); it is downloaded again from byte 0',
    })
  })
})

describe('download$: fromPartial is reported only by a download that keeps partial files', () => {
  it.each([
    ['in one go', (req: SeenRequest) => (req.n === 1 ? whole(['ABCDEFGHIJ']) : new Error('no second request'))],
    ['after starting over', (req: SeenRequest) => (req.n === 1 ? whole(breaking('ABCD'), { etag: '' }) : whole(['ABCDEFGHIJ'], { etag: '' }))],
  ])('a Blob saved %s has no fromPartial', async (_, answer) => {
    const { clock, o } = start(answer)
    await ended(o, clock)
    expect(saved(o)).toMatchObject({ bytes: 10 })
    expect(saved(o)).not.toHaveProperty('fromPartial')
  })
})

describe('Transfer: a partial file that cannot be read', () => {
  it('fails the download before any request', async () => {
    const clock = new VirtualClock()
    const gw = fakeGateway(() => whole(['ABCDEFGHIJ']))
    const sink: Sink = {
      leftover: () => Promise.reject(new Error('EIO: the part file could not be read')),
      write: async () => {},
      restart: async () => true,
      finish: async () => ({}),
      discard: async () => {},
    }
    const o = observe(
      new Observable<DownloadEvent>((subscriber) => {
        const transfer = new Transfer(URL_, '/files/clip.mp4', sink, { transport: gw.transport, maxBytes: 100 }, clock, subscriber)
        void transfer.run()
        return () => transfer.stop()
      }),
    )
    await ended(o, clock)
    expect((o.error as Error).message).toContain('EIO: the part file could not be read')
    expect(gw.requests).toHaveLength(0)
  })
})
