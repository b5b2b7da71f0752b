import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import type { DownloadEvent, DownloadOptions, DownloadSaved, DownloadTarget, WritableLike } from '../../src/download/types.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isTimeoutError } from '../../src/errors/TimeoutError.js'
import { VirtualClock, settle } from '../helpers/clock.js'
import { observe, type Observed } from '../helpers/collect.js'
import { within } from '../helpers/server.js'
import { fakeGateway, networkError, type FakeReply, type SeenRequest } from '../helpers/fakeTransport.js'

const URL_ = 'https://cdn.example/files/clip.mp4?sig=secret-signature'
const FILE = 'ABCDEFGHIJ'

/** A body that sends `chunks` and then breaks, as a dropped connection does. */
function* breaking(...chunks: string[]): Generator<string> {
  yield* chunks
  throw networkError('ECONNRESET')
}

/** The version of the file served: its strong ETag. */
const V1 = '"v1"'

/** The whole file (a 200), served with ranges, its length and its ETag unless told otherwise. */
function whole(body: FakeReply['body'], headers: Record<string, string> = {}): FakeReply {
  return { status: 200, headers: { 'content-length': '10', 'accept-ranges': 'bytes', 'content-type': 'video/mp4', etag: V1, ...headers }, body }
}

/** The file from byte `from` (a 206), of the same version unless told otherwise. */
function rest(from: number, body: FakeReply['body'], range = `bytes ${from}-9/10`, headers: Record<string, string> = {}): FakeReply {
  const end = Number(/-(\d+)\//.exec(range)?.[1] ?? 9)
  return { status: 206, headers: { 'content-range': range, 'content-length': String(end + 1 - from), 'content-type': 'video/mp4', etag: V1, ...headers }, body }
}

const rangeOf = (req: SeenRequest) => req.headers.range

function start(answer: (req: SeenRequest, clock: VirtualClock) => FakeReply | Error, options: DownloadOptions = {}, target: DownloadTarget = { blob: true }) {
  const clock = new VirtualClock()
  const times: number[] = []
  const gw = fakeGateway((req) => {
    times.push(clock.now())
    return answer(req, clock)
  })
  const o = observe(download$(URL_, target, { transport: gw.transport, scheduler: clock, ...options }))
  return { gw, clock, o, times }
}

/** Lets the fake transport and the sink run until the download ends (no virtual time passes). */
async function ended(o: Observed<DownloadEvent>): Promise<void> {
  for (let i = 0; i < 50 && !o.completed && o.error === undefined; i++) await settle(1)
}

/** Lets the download run to its end, waits between attempts included (virtual time). */
async function endedAfterWaits(o: Observed<DownloadEvent>, clock: VirtualClock): Promise<void> {
  for (let i = 0; i < 20 && !o.completed && o.error === undefined; i++) {
    await ended(o)
    await clock.run(10_000)
  }
}

const saved = (o: Observed<DownloadEvent>) => o.values.at(-1) as DownloadSaved
const progress = (o: Observed<DownloadEvent>) => o.values.filter((e) => e.type === 'progress')

afterEach(() => {
  vi.restoreAllMocks()
})

describe('download$: resuming a broken transfer', () => {
  it('a break halfway resumes with Range (and If-Range) from the byte reached; progress counts to the total', async () => {
    const { gw, o, clock } = start((req) => (req.n === 1 ? whole(breaking('ABCD'), { etag: '"v1"' }) : rest(4, ['EFG', 'HIJ'], 'bytes 4-9/10')))
    await ended(o)
    expect(o.completed).toBe(true)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-'])
    expect(gw.request(2).headers['if-range']).toBe('"v1"')
    expect(progress(o)).toEqual([
      { type: 'progress', bytes: 4, total: 10, fraction: 0.4 },
      { type: 'progress', bytes: 7, total: 10, fraction: 0.7 },
      { type: 'progress', bytes: 10, total: 10, fraction: 1 },
    ])
    expect(saved(o)).toMatchObject({ type: 'saved', bytes: 10, resumed: 1, restarted: 0 })
    expect(await saved(o).blob!.text()).toBe(FILE)
    expect(clock.pending).toBe(0)
  })

  it('a body that ends cleanly short of its Content-Length is a break, and is resumed', async () => {
    const { gw, o } = start((req) => (req.n === 1 ? whole(['ABCD']) : rest(4, ['EFGHIJ'])))
    await ended(o)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-'])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 1 })
    expect(await saved(o).blob!.text()).toBe(FILE)
  })

  it('without Content-Length, the end of the body is the end of the file', async () => {
    const { gw, o } = start(() => ({ status: 200, headers: { 'content-type': 'video/mp4' }, body: ['ABCD', 'EFGHIJ'] }))
    await ended(o)
    expect(o.completed).toBe(true)
    expect(gw.requests).toHaveLength(1)
    expect(progress(o)).toEqual([
      { type: 'progress', bytes: 4, total: undefined, fraction: undefined },
      { type: 'progress', bytes: 10, total: undefined, fraction: undefined },
    ])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 0 })
  })

  it('a file of unknown length is resumed too, and takes its size from the 206', async () => {
    const { gw, o } = start((req) => (req.n === 1 ? { status: 200, headers: { 'accept-ranges': 'bytes', etag: V1 }, body: breaking('ABCD') } : rest(4, ['EFGHIJ'])))
    await ended(o)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-'])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 1, restarted: 0 })
    expect(progress(o).at(-1)).toEqual({ type: 'progress', bytes: 10, total: 10, fraction: 1 })
    expect(await saved(o).blob!.text()).toBe(FILE)
  })

  it('a 206 that does not give the size (bytes 4-9/*) resumes, keeping the size known', async () => {
    const { o } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : rest(4, ['EFGHIJ'], 'bytes 4-9/*')))
    await ended(o)
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 1, restarted: 0 })
    expect(progress(o).at(-1)).toEqual({ type: 'progress', bytes: 10, total: 10, fraction: 1 })
  })

  it('retries caps the requests in all, even while bytes keep arriving: retries 2 is at most 3 requests', async () => {
    const { gw, o, clock } = start(
      (req) => {
        const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0)
        // Two bytes per answer, then the connection drops; the last answer ends the file.
        const body = from + 2 >= 10 ? [FILE.slice(from)] : breaking(FILE.slice(from, from + 2))
        return from === 0 ? whole(body) : rest(from, body)
      },
      { retries: 2 },
    )
    await endedAfterWaits(o, clock)
    expect(isConnectionError(o.error)).toBe(true)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=2-', 'bytes=4-'])
    expect(o.values.filter((e) => e.type === 'saved')).toEqual([])
  })

  it('a transfer that moves on every request completes within retries', async () => {
    const { gw, o, clock } = start(
      (req) => {
        const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0)
        const body = from + 2 >= 10 ? [FILE.slice(from)] : breaking(FILE.slice(from, from + 2))
        return from === 0 ? whole(body) : rest(from, body)
      },
      { retries: 4 },
    )
    await endedAfterWaits(o, clock)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=2-', 'bytes=4-', 'bytes=6-', 'bytes=8-'])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 4, restarted: 0 })
    expect(await saved(o).blob!.text()).toBe(FILE)
  })
})

describe('download$: starting over', () => {
  it('a 416 to a resume starts over from byte 0 without Range, after a retry delay', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
    const { gw, o, clock, times } = start((req) =>
      req.n === 1 ? whole(breaking('ABCD')) : req.n === 2 ? { status: 416, headers: { 'content-range': 'bytes */10' }, body: '' } : whole([FILE]),
    )
    await ended(o)
    expect(gw.requests).toHaveLength(2)
    await clock.run(249)
    expect(gw.requests).toHaveLength(2)
    await clock.run(1)
    await ended(o)
    expect(times).toEqual([0, 0, 250])
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-', undefined])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 1 })
    expect(await saved(o).blob!.text()).toBe(FILE)
  })

  it('a 206 of a file that changed size is not trusted: the download starts over', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
    const { gw, o, clock } = start((req) =>
      req.n === 1 ? whole(breaking('ABCD')) : req.n === 2 ? rest(4, ['efghijkl'], 'bytes 4-11/12') : whole(['abcdefghijkl'], { 'content-length': '12' }),
    )
    await ended(o)
    await clock.run(250)
    await ended(o)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-', undefined])
    expect(saved(o)).toMatchObject({ bytes: 12, resumed: 0, restarted: 1 })
    expect(await saved(o).blob!.text()).toBe('abcdefghijkl')
  })

  it('a break before the first byte is tried again from 0 without counting a restart, even when the size changed', async () => {
    const { gw, o } = start((req) => (req.n === 1 ? { status: 200, headers: { 'content-length': '10' }, body: breaking() } : { status: 200, headers: { 'content-length': '12' }, body: ['abcdefghijkl'] }))
    await ended(o)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, undefined])
    expect(saved(o)).toMatchObject({ bytes: 12, resumed: 0, restarted: 0 })
  })

  it('a range answer that does not fit, once retries are spent, is a ConnectionError that says why in its cause', async () => {
    const { o } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : { status: 416, body: '' }), { retries: 1 })
    await ended(o)
    expect(isConnectionError(o.error)).toBe(true)
    expect((o.error as Error).message).toBe('GET /files/clip.mp4: the connection closed in the middle of the reply')
    expect(((o.error as Error).cause as Error).message).toBe('the server answered a byte range that does not fit the file')
  })
})

describe('download$: giving up', () => {
  it('with retries 0, a break mid-body fails with ConnectionError naming the path only', async () => {
    const { gw, o } = start(() => whole(breaking('ABCD')), { retries: 0 })
    await ended(o)
    expect(gw.requests).toHaveLength(1)
    expect(isConnectionError(o.error)).toBe(true)
    expect(o.error).toMatchObject({ method: 'GET', path: '/files/clip.mp4', sent: true })
    expect((o.error as Error).message).toBe('GET /files/clip.mp4: the connection closed in the middle of the reply (ECONNRESET)')
  })

  it('with retries 0, a body ending early fails and says so in its cause', async () => {
    const { o } = start(() => whole(['ABCD']), { retries: 0 })
    await ended(o)
    expect((o.error as Error).message).toBe('GET /files/clip.mp4: the connection closed in the middle of the reply')
    expect(((o.error as Error).cause as Error).message).toBe('the body ended early')
  })

  it('the first break is taken up at once, later ones in a row wait growing delays, then the download fails', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
    const { o, clock, times } = start(() => networkError('ECONNRESET'))
    await ended(o)
    await clock.run(10_000)
    await ended(o)
    expect(times).toEqual([0, 0, 250, 750])
    expect(isConnectionError(o.error)).toBe(true)
    expect(clock.pending).toBe(0)
  })

  it('waits what the server asks with Retry-After, even for the first failure', async () => {
    const { o, clock, times } = start((req) => (req.n === 1 ? { status: 503, headers: { 'retry-after': '2' }, body: '' } : whole([FILE])))
    await ended(o)
    await clock.run(1_999)
    expect(times).toEqual([0])
    await clock.run(1)
    await ended(o)
    expect(times).toEqual([0, 2_000])
    expect(saved(o)).toMatchObject({ bytes: 10 })
  })

  it('a Retry-After longer than timeoutMs is waited out quietly, then the download goes on', async () => {
    const { o, clock, times } = start((req) => (req.n === 1 ? { status: 503, headers: { 'retry-after': '20' }, body: '' } : whole([FILE])), { timeoutMs: 5_000 })
    await ended(o)
    await clock.run(20_000)
    await ended(o)
    expect(times).toEqual([0, 20_000])
    expect(o.completed).toBe(true)
    expect(clock.pending).toBe(0)
  })
})

describe('download$: silence', () => {
  it('is measured from the last byte: aborted exactly timeoutMs after it, then resumed', async () => {
    const { gw, o, clock } = start((req) => (req.n === 1 ? whole('fed') : rest(4, ['EFGHIJ'])), { timeoutMs: 5_000 })
    await settle()
    await clock.run(3_000)
    gw.request(1).fed!.push('ABCD')
    await settle()
    await clock.run(2_000)
    // The one silence timer is due when the silence could first reach timeoutMs.
    expect(clock.pendingDelays).toEqual([3_000])
    await clock.run(2_999)
    expect(gw.request(1).aborted).toBe(false)
    await clock.run(1)
    await ended(o)
    expect(gw.request(1).aborted).toBe(true)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-'])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 1 })
    expect(clock.pending).toBe(0)
  })

  it('bytes arriving more often than timeoutMs keep the transfer alive', async () => {
    const { gw, o, clock } = start(() => whole('fed'), { timeoutMs: 5_000 })
    await settle()
    for (const chunk of ['AB', 'CD', 'EF', 'GH', 'IJ']) {
      await clock.run(4_000)
      gw.request(1).fed!.push(chunk)
      await settle()
    }
    gw.request(1).fed!.end()
    await ended(o)
    expect(gw.requests).toHaveLength(1)
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 0 })
  })

  it('a target slow to write is not silence: the clock stands still while it writes, and runs from the end of the write', async () => {
    const taken: string[] = []
    let release: (() => void) | undefined
    const target: WritableLike = {
      write: (chunk, callback) => {
        taken.push(new TextDecoder().decode(chunk))
        // The first chunk takes as long as the test says; the others are taken at once.
        if (taken.length === 1) release = () => callback()
        else callback()
        return true
      },
      end: (callback) => callback?.(),
    }
    const { gw, o, clock } = start((req) => (req.n === 1 ? whole('fed') : rest(4, ['EFGHIJ'])), { timeoutMs: 5_000 }, target)
    await settle()
    gw.request(1).fed!.push('ABCD')
    await settle()
    await clock.run(20_000)
    expect(gw.request(1).aborted).toBe(false)
    release!()
    await settle()
    await clock.run(4_999)
    expect(gw.request(1).aborted).toBe(false)
    await clock.run(1)
    await ended(o)
    expect(gw.request(1).aborted).toBe(true)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-'])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 1, restarted: 0 })
    expect(taken.join('')).toBe(FILE)
  })

  it('a target slow to write every chunk keeps a steady transfer alive', async () => {
    const pending: (() => void)[] = []
    const target: WritableLike = { write: (_, callback) => (pending.push(() => callback()), true), end: (callback) => callback?.() }
    const { gw, o, clock } = start(() => whole(['AB', 'CD', 'EF', 'GH', 'IJ']), { timeoutMs: 5_000 }, target)
    for (let i = 0; i < 5; i++) {
      await settle()
      await clock.run(8_000)
      pending.shift()!()
    }
    await ended(o)
    expect(gw.requests).toHaveLength(1)
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 0 })
  })

  it('with retries 0, silence fails with TimeoutError', async () => {
    const { gw, o, clock } = start(() => whole('fed'), { timeoutMs: 5_000, retries: 0 })
    await settle()
    gw.request(1).fed!.push('ABCD')
    await clock.run(5_000)
    await ended(o)
    expect(isTimeoutError(o.error)).toBe(true)
    expect((o.error as Error).message).toBe('GET /files/clip.mp4: nothing complete arrived within 5000 ms; the request was aborted. Raise timeoutMs if the gateway is slow.')
    expect(clock.pending).toBe(0)
  })
})

describe('download$: unsubscribing', () => {
  it('aborts the request, and no request follows', async () => {
    const { gw, o, clock } = start(() => whole('fed'))
    await settle()
    gw.request(1).fed!.push('ABCD')
    await settle()
    expect(progress(o)).toHaveLength(1)
    o.subscription.unsubscribe()
    await settle()
    await clock.run(120_000)
    await settle()
    expect(gw.request(1).aborted).toBe(true)
    expect(gw.requests).toHaveLength(1)
    expect(clock.pending).toBe(0)
  })
})

describe('download$: unsubscribing from a Writable target', () => {
  it.each([
    ['of unknown length', {}],
    ['of known length', { 'content-length': '10' }],
  ])('while the stream takes a chunk of a file %s: the stream is neither ended nor written to again', async (_, length) => {
    const taken: string[] = []
    let release: (() => void) | undefined
    let ended = 0
    const target: WritableLike = {
      write: (chunk, callback) => {
        taken.push(new TextDecoder().decode(chunk))
        release = () => callback()
        return false
      },
      end: (callback) => {
        ended++
        callback?.()
      },
    }
    const { gw, o, clock } = start(() => ({ status: 200, headers: { 'content-type': 'video/mp4', ...length }, body: 'fed' }), {}, target)
    await settle()
    gw.request(1).fed!.push('ABCD')
    await settle()
    expect(taken).toEqual(['ABCD'])
    o.subscription.unsubscribe()
    release!()
    gw.request(1).fed!.push('EFGHIJ')
    gw.request(1).fed!.end()
    await settle()
    await clock.run(120_000)
    await settle()
    expect(ended).toBe(0)
    expect(taken).toEqual(['ABCD'])
    expect(o.values).toEqual([])
    expect(gw.requests).toHaveLength(1)
    expect(clock.pending).toBe(0)
  })
})

describe('download$: the target refusing the end', () => {
  it('a file that cannot take its final name fails with GatewayError and leaves no partial file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxgate-transfer-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    // The final name is a folder: the rename at the end is refused.
    await mkdir(join(dir, 'v.mp4'))
    const { o } = start(() => whole([FILE]), {}, join(dir, 'v.mp4'))
    await within(o.done, 3_000, 'the download ending')
    expect(o.completed).toBe(false)
    expect(isGatewayError(o.error)).toBe(true)
    expect((o.error as Error).message).toMatch(/^Could not write the download to .*v\.mp4 \(EISDIR\)\. /)
    expect(await readdir(dir)).toEqual(['v.mp4'])
    expect(await readdir(join(dir, 'v.mp4'))).toEqual([])
  })
})

describe('download$: never splicing two versions of a file', () => {
  it('a 206 with another ETag (a server that ignored If-Range) is not appended: the download starts over from byte 0', async () => {
    const { gw, o, clock } = start((req) =>
      req.n === 1 ? whole(breaking('ABCD')) : req.n === 2 ? rest(4, ['efghij'], 'bytes 4-9/10', { etag: '"v2"' }) : whole(['abcdefghij'], { etag: '"v2"' }),
    )
    await endedAfterWaits(o, clock)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-', undefined])
    expect(gw.request(2).headers['if-range']).toBe(V1)
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 1 })
    expect(await saved(o).blob!.text()).toBe('abcdefghij')
  })

  it('a 206 with another Last-Modified is not appended either', async () => {
    const first = { etag: '', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }
    const { gw, o, clock } = start((req) =>
      req.n === 1
        ? whole(breaking('ABCD'), first)
        : req.n === 2
          ? rest(4, ['efghij'], 'bytes 4-9/10', { ...first, 'last-modified': 'Tue, 02 Jan 2024 00:00:00 GMT' })
          : whole(['abcdefghij'], first),
    )
    await endedAfterWaits(o, clock)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-', undefined])
    expect(gw.request(2).headers['if-range']).toBe('Mon, 01 Jan 2024 00:00:00 GMT')
    expect(await saved(o).blob!.text()).toBe('abcdefghij')
  })

  it.each([
    ['no validator at all', { etag: '' }],
    ['only a weak ETag', { etag: 'W/"v1"' }],
  ])('with %s the rest is never asked for: a break starts over from byte 0', async (_, headers) => {
    const { gw, o } = start((req) => (req.n === 1 ? whole(breaking('ABCD'), headers) : whole([FILE], headers)))
    await ended(o)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, undefined])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 1 })
    expect(await saved(o).blob!.text()).toBe(FILE)
  })

  it('a Writable already written to cannot start over: another version fails the download, nothing of it is written', async () => {
    const taken: string[] = []
    const target: WritableLike = { write: (chunk, callback) => (taken.push(new TextDecoder().decode(chunk)), callback(), true), end: (callback) => callback?.() }
    const { gw, o } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : rest(4, ['efghij'], 'bytes 4-9/10', { etag: '"v2"' })), {}, target)
    await ended(o)
    expect((o.error as Error).message).toMatch(/cannot be rewound/)
    expect(taken).toEqual(['ABCD'])
    expect(gw.requests).toHaveLength(2)
  })
})

describe('download$: never writing more than announced', () => {
  it('a body longer than its Content-Length fails the download before the extra bytes are written', async () => {
    const { o } = start(() => whole(['ABCDEFGHIJ', 'KLMN']))
    await ended(o)
    expect(isGatewayError(o.error)).toBe(true)
    expect((o.error as Error).message).toMatch(/^GET \/files\/clip\.mp4: the server sent more than the 10 bytes it announced/)
    expect(o.values.filter((e) => e.type === 'saved')).toEqual([])
    expect(progress(o).at(-1)).toMatchObject({ bytes: 10 })
  })

  it('a 206 that sends more than its Content-Range fails the download', async () => {
    const { o } = start((req) => (req.n === 1 ? whole(breaking('ABCD')) : { status: 206, headers: { 'content-range': 'bytes 4-9/10', etag: V1 }, body: ['EFGHIJ', 'XYZ'] }))
    await ended(o)
    expect((o.error as Error).message).toMatch(/more than the 10 bytes it announced/)
    expect(o.values.filter((e) => e.type === 'saved')).toEqual([])
  })

  it('a 206 whose Content-Length disagrees with its Content-Range is not trusted: it starts over', async () => {
    const { gw, o, clock } = start((req) =>
      req.n === 1 ? whole(breaking('ABCD')) : req.n === 2 ? rest(4, ['EFGHIJ'], 'bytes 4-9/10', { 'content-length': '60' }) : whole([FILE]),
    )
    await endedAfterWaits(o, clock)
    expect(gw.requests.map(rangeOf)).toEqual([undefined, 'bytes=4-', undefined])
    expect(saved(o)).toMatchObject({ bytes: 10, resumed: 0, restarted: 1 })
  })
})
