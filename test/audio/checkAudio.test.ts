import { config, firstValueFrom } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AudioFetch, AudioReply, AudioRequestInit } from '../../src/audio/audioHttp.js'
import { checkAudio$ } from '../../src/audio/checkAudio$.js'
import { HEAD_BYTES, MAX_PROBE_BYTES } from '../../src/audio/readAudio.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { settle, VirtualClock } from '../helpers/clock.js'
import { collect, errorOf, observe } from '../helpers/collect.js'
import { closedPort, startServer, within } from '../helpers/server.js'
import { audioHost } from './audioHost.js'
import { fakeDns } from './fakeDns.js'
import { fakeHost, reply } from './fakeHost.js'
import { chunk, concat, fmt, frame, HEADERS, id3, latin1, PNG, toneWav, wav, xing } from './fixtures.js'

// No real DNS: a caller's fetch has each hostname looked up first; names resolve as a test says (others ENOTFOUND, passed on).
vi.mock('node:dns', async (importOriginal) => (await import('./fakeDns.js')).mockedDns(importOriginal))
afterEach(() => void (vi.unstubAllGlobals(), fakeDns.names.clear(), (fakeDns.asked.length = 0)))

/** 96 kHz 24-bit stereo: 16 MiB of it lasts 29.1 s, so only the size breaks a rule. */
const HIGH_RATE = fmt({ channels: 2, sampleRate: 96_000, bits: 24 })

/** The one issue of an InvalidRequestError at audio_url. */
function issueOf(error: unknown): string {
  expect(isInvalidRequestError(error)).toBe(true)
  const { issues } = error as { issues: { path: string; message: string }[] }
  expect(issues.every((i) => i.path === 'audio_url')).toBe(true)
  return issues.map((i) => i.message).join(' | ')
}

describe('checkAudio$: reads a few KB of the file, with a plain request', () => {
  it('HEAD for the size, then one ranged GET of the first 4 KB; emits what it found', async () => {
    const file = toneWav(5)
    const host = await audioHost(file)
    expect(await firstValueFrom(checkAudio$(`${host.url}/voice.wav`, { allowHosts: [host.url] }))).toEqual({ checked: true, format: 'wav', seconds: 5, bytes: file.length })
    expect(host.asked()).toEqual(['HEAD -', `GET bytes=0-${HEAD_BYTES - 1}`])
    expect(host.sent()).toBe(HEAD_BYTES)
  })

  it('sends none of the client headers: no Authorization, no cookies; asks for the bytes as stored', async () => {
    const host = await audioHost(toneWav(5))
    await firstValueFrom(checkAudio$(`${host.url}/voice.wav`, { allowHosts: [host.url] }))
    for (const { headers } of host.requests) {
      expect(headers.authorization).toBeUndefined()
      expect(headers.cookie).toBeUndefined()
      expect(headers['accept-encoding']).toMatch(/^identity(, identity)?$/) // fetch adds its own to a ranged GET
    }
  })

  it('where HEAD is refused, or gives no length, takes the size from the GET\'s Content-Range', async () => {
    const file = wav([HIGH_RATE], 16 * 1024 * 1024)
    for (const head of ['refuse', 'no-length'] as const) {
      const host = await audioHost(file, { head })
      expect(issueOf(await errorOf(checkAudio$(`${host.url}/a.wav`, { allowHosts: [host.url] })))).toBe('audio is 16.0 MB; the interface allows at most 15 MB')
      expect(host.asked()).toEqual(['HEAD -', `GET bytes=0-${HEAD_BYTES - 1}`])
    }
  })

  it('reads header bytes that arrive a few at a time', async () => {
    const file = concat(id3(37), frame(HEADERS.mpeg1Stereo, 417, { at: 36, bytes: xing('Xing', 383) }), new Uint8Array(383 * 417))
    const host = await audioHost(file, { trickle: 3 })
    expect(await firstValueFrom(checkAudio$(`${host.url}/a.mp3`, { allowHosts: [host.url] }))).toEqual({ checked: true, format: 'mp3', seconds: (383 * 1152) / 44_100, bytes: file.length })
    expect(host.sent()).toBeLessThan(200) // stopped as soon as the Xing count was in
  })

  it('past a long ID3v2 tag, reads 512 bytes where the frame starts: at most a few KB in all', async () => {
    const file = concat(id3(60_000), frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 1300) }), new Uint8Array(1300 * 417))
    const host = await audioHost(file)
    expect(issueOf(await errorOf(checkAudio$(`${host.url}/a.mp3`, { allowHosts: [host.url] })))).toBe('audio is 34.0 s; the interface allows 3 to 30 s')
    expect(host.asked()).toEqual(['HEAD -', 'GET bytes=0-4095', 'GET bytes=60010-60521'])
    expect(host.sent()).toBe(4096 + 512)
  })

  it('never reads more than a few KB, however many chunks come before a WAV\'s data', async () => {
    const many = Array.from({ length: 8 }, () => chunk('junk', new Uint8Array(20_000)))
    const host = await audioHost(wav([fmt(), ...many], 16_000 * 5))
    expect(await firstValueFrom(checkAudio$(`${host.url}/a.wav`, { allowHosts: [host.url] }))).toEqual({ checked: true, format: 'wav', bytes: expect.any(Number) })
    expect(host.sent()).toBeLessThanOrEqual(MAX_PROBE_BYTES)
    expect(MAX_PROBE_BYTES).toBeLessThanOrEqual(6 * 1024)
  })

  it('a server that ignores ranges and sends all 16 MiB is read for 4 KB only, then the connection is closed', async () => {
    const file = wav([HIGH_RATE], 16 * 1024 * 1024)
    const host = await audioHost(file, { ranges: false })
    expect(issueOf(await errorOf(checkAudio$(`${host.url}/big.wav`, { allowHosts: [host.url] })))).toBe('audio is 16.0 MB; the interface allows at most 15 MB')
    const get = host.requests[1]!
    await within(get.closedEarly, 2_000, 'the close of the GET')
    expect(host.sent()).toBeLessThan(file.length)
  })

  it('refuses a PNG named .mp3 by its bytes', async () => {
    const host = await audioHost(concat(PNG, new Uint8Array(3000)))
    expect(issueOf(await errorOf(checkAudio$(`${host.url}/image.mp3`, { allowHosts: [host.url] })))).toBe(
      'audio is not WAV or MP3 (it starts with bytes 89 50 4E 47: a PNG image); the interface allows WAV or MP3',
    )
  })

  it('an ID3 tag header and then zeros is not an MP3, however the server answers: no MPEG frame header was seen', async () => {
    const tagOnly = id3(60_000).subarray(0, 10) // "ID3", v2.4, a declared size of 60,000 bytes
    const message = 'audio is not WAV or MP3 (it starts with bytes 49 44 33 04: an ID3 tag with no MPEG audio frame found after it); the interface allows WAV or MP3'
    const hosts = [
      fakeHost(concat(tagOnly, new Uint8Array(70_000))), // ranges honoured: the frame's place holds zeros
      fakeHost(concat(tagOnly, new Uint8Array(70_000)), { honoursRange: () => false }), // ranges ignored: 4 KB of zeros read
      fakeHost(concat(tagOnly, new Uint8Array(3_000)), { head: { status: 405 }, rangeTotal: false }), // the tag claims more than the file holds, size untold
      fakeHost(concat(tagOnly, latin1('garbage'.repeat(500)))),
    ]
    for (const host of hosts) expect(issueOf(await errorOf(checkAudio$('https://cdn.example.com/a.mp3', { fetch: host.fetch })))).toBe(message)
  })

  it('a length the header does not give is not an error', async () => {
    const host = await audioHost(concat(frame(HEADERS.freeFormat, 417), new Uint8Array(4000)), { head: 'no-length', ranges: false })
    expect(await firstValueFrom(checkAudio$(`${host.url}/free.mp3`, { allowHosts: [host.url] }))).toEqual({ checked: true, format: 'mp3', bytes: 4417 })
  })
})

describe('checkAudio$: a file that cannot be read', () => {
  it('an HTTP error status: InvalidRequestError naming audio_url and the status', async () => {
    const host = await startServer((_, res) => res.writeHead(404).end())
    expect(issueOf(await errorOf(checkAudio$(`${host.url}/gone.wav`, { allowHosts: [host.url] })))).toMatch(/^could not be read: it answered HTTP 404; check that the URL is public/)
  })

  it('a refused connection: InvalidRequestError with the code', async () => {
    const port = await closedPort()
    expect(issueOf(await errorOf(checkAudio$(`http://127.0.0.1:${port}/a.wav`, { allowPrivateNetwork: true })))).toMatch(/^could not be read: the connection failed \(ECONNREFUSED\)/)
  })

  it('nothing within timeoutMs, on the given scheduler: InvalidRequestError, and the request is aborted', async () => {
    const clock = new VirtualClock()
    const host = await startServer(() => {}) // never answers
    const o = observe(checkAudio$(`${host.url}/slow.wav`, { timeoutMs: 5_000, scheduler: clock, allowHosts: [host.url] }))
    const head = await host.request(1)
    await clock.run(4_999)
    expect(o.error).toBeUndefined()
    await clock.run(1)
    expect(issueOf(o.error)).toMatch(/^could not be read: nothing within 5000 ms/)
    await within(head.closedEarly, 2_000, 'the close of the HEAD')
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5000'])('a timeoutMs of %s is refused before anything is fetched (a timer cannot hold it, or it would give up at once)', async (timeoutMs) => {
    const host = await startServer(() => {})
    const error = await errorOf(checkAudio$(`${host.url}/voice.wav`, { timeoutMs: timeoutMs as number, allowHosts: [host.url] }))
    expect(isInvalidRequestError(error)).toBe(true)
    const { issues } = error as { issues: { path: string; message: string }[] }
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({ path: 'timeoutMs', message: expect.stringMatching(/^must be an integer of milliseconds from 1 to 2147483647 \(got /) })
    expect(host.requests).toHaveLength(0)
  })

  it('unsubscribing aborts the probe: a host stalled mid-body sees the connection close', async () => {
    const host = await audioHost(toneWav(5), { stallAfter: 10 })
    const o = observe(checkAudio$(`${host.url}/a.wav`, { allowHosts: [host.url] }))
    const get = await host.request(2)
    await vi.waitFor(() => expect(host.sent()).toBe(10))
    o.subscription.unsubscribe()
    await within(get.closedEarly, 2_000, 'the close of the GET')
    expect(o.error).toBeUndefined()
    expect(o.completed).toBe(false)
  })

  it('in a browser, a fetch that fails without an answer (a CORS refusal looks like that) does not block: checked false', async () => {
    const fetchAudio: AudioFetch = () => Promise.reject(new TypeError('Failed to fetch'))
    const inNode = await errorOf(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio }))
    expect(issueOf(inNode)).toMatch(/^could not be read: the request failed \(Failed to fetch\)/)
    vi.stubGlobal('document', {})
    const { values, error } = await collect(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio }))
    expect(error).toBeUndefined()
    expect(values).toEqual([{ checked: false, reason: expect.stringMatching(/^this page may not read it \(CORS, or the network\)/) }])
  })

  it('in a browser, an answer with an error status still refuses', async () => {
    vi.stubGlobal('document', {})
    const fetchAudio: AudioFetch = async () => new Response(null, { status: 403 })
    expect(issueOf(await errorOf(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio })))).toMatch(/^could not be read: it answered HTTP 403/)
  })

  it('a URL that is not http(s) is left to the gateway: checked false, nothing fetched', async () => {
    const fetchAudio = vi.fn<AudioFetch>()
    const reason = 'not an http(s) URL, which only the gateway can read'
    expect(await firstValueFrom(checkAudio$('oss://bucket/voice.wav', { fetch: fetchAudio }))).toEqual({ checked: false, reason })
    expect(await firstValueFrom(checkAudio$('oss://bucket/https://cdn.example.com/voice.wav', { fetch: fetchAudio }))).toEqual({ checked: false, reason })
    expect(fetchAudio).not.toHaveBeenCalled()
  })

  it('takes the global fetch as is (any WHATWG fetch fits AudioFetch)', async () => {
    const host = await audioHost(toneWav(4))
    expect(await firstValueFrom(checkAudio$(`${host.url}/a.wav`, { fetch: globalThis.fetch, allowHosts: [host.url] }))).toMatchObject({ checked: true, seconds: 4 })
  })

  it('goes through the fetch given, with a plain request: no credentials, no referrer, one hop per request', async () => {
    const file = toneWav(4)
    const seen: AudioRequestInit[] = []
    const fetchAudio: AudioFetch = async (_, init) => {
      seen.push(init)
      if (init.method === 'HEAD') return new Response(null, { headers: { 'content-length': String(file.length) } })
      return new Response(file.slice(0, HEAD_BYTES), { status: 206, headers: { 'content-range': `bytes 0-${HEAD_BYTES - 1}/${file.length}` } })
    }
    expect(await firstValueFrom(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio }))).toEqual({ checked: true, format: 'wav', seconds: 4, bytes: file.length })
    expect(seen.map(({ signal: _, ...init }) => init)).toEqual([
      { method: 'HEAD', headers: { 'accept-encoding': 'identity' }, redirect: 'manual', credentials: 'omit', referrerPolicy: 'no-referrer' },
      { method: 'GET', headers: { range: `bytes=0-${HEAD_BYTES - 1}` }, redirect: 'manual', credentials: 'omit', referrerPolicy: 'no-referrer' },
    ])
  })
})

describe('checkAudio$: private addresses are refused unless allowed', () => {
  const PRIVATE = 'refers to a private address (loopback); rxgate does not fetch private networks unless the host is in allowHosts or allowPrivateNetwork is true'

  it('a host on loopback: refused as it is (not "could not be read"), and the host sees nothing', async () => {
    const host = await audioHost(toneWav(5))
    const error = await errorOf(checkAudio$(`${host.url}/voice.wav?token=s3cr3t`))
    expect(issueOf(error)).toBe(PRIVATE)
    expect((error as Error).message).not.toContain('s3cr3t')
    expect(host.requests).toEqual([])
    expect(await firstValueFrom(checkAudio$(`${host.url}/voice.wav`, { allowPrivateNetwork: true }))).toMatchObject({ checked: true, seconds: 5 })
  })

  it('with a fetch of the caller\'s own: addresses in URLs and at each redirect are checked, the fetch is not called for them', async () => {
    const fetchAudio = vi.fn<AudioFetch>(async () => new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }))
    expect(issueOf(await errorOf(checkAudio$('http://[::1]:8080/a.wav', { fetch: fetchAudio })))).toBe(PRIVATE)
    expect(fetchAudio).not.toHaveBeenCalled()
    expect(issueOf(await errorOf(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio })))).toBe(
      'redirects to a private address (link-local); rxgate does not fetch private networks unless the host is in allowHosts or allowPrivateNetwork is true',
    )
    expect(fetchAudio.mock.calls.map(([url, init]) => [url, init.redirect])).toEqual([['https://cdn.example.com/a.wav', 'manual']])
  })

  it("with a fetch of the caller's own: a hostname that resolves to a private address is refused, the fetch is not called", async () => {
    fakeDns.names.set('169.254.169.254.nip.io', ['169.254.169.254'])
    const host = fakeHost(toneWav(5))
    const error = await errorOf(checkAudio$('http://169.254.169.254.nip.io/latest/meta-data/', { fetch: host.fetch }))
    expect(issueOf(error)).toBe('refers to a private address (link-local); rxgate does not fetch private networks unless the host is in allowHosts or allowPrivateNetwork is true')
    expect(host.asked).toEqual([])
    expect(await firstValueFrom(checkAudio$('http://169.254.169.254.nip.io/voice.wav', { fetch: host.fetch, allowHosts: ['169.254.169.254.nip.io'] }))).toMatchObject({ checked: true })
  })

  it.each(['false', 'true', 1, null])('an allowPrivateNetwork of %j is refused, not read as true: nothing is sent', async (value) => {
    const host = await audioHost(toneWav(5))
    const error = await errorOf(checkAudio$(`${host.url}/voice.wav`, { allowPrivateNetwork: value as never }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as { issues: unknown }).issues).toEqual([{ path: 'allowPrivateNetwork', message: `must be true or false (got ${value === null ? 'null' : typeof value})` }])
    expect(host.requests).toEqual([])
  })
})

describe('checkAudio$: in a worker, and when the probe itself breaks', () => {
  it('in a worker too, a fetch that fails without an answer does not block: checked false', async () => {
    vi.stubGlobal('importScripts', () => {})
    const fetchAudio: AudioFetch = () => Promise.reject(new TypeError('Failed to fetch'))
    expect(await firstValueFrom(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio }))).toEqual({
      checked: false,
      reason: 'this page may not read it (CORS, or the network): the request failed (Failed to fetch)',
    })
  })

  it('a failure that is not the file\'s (here a fetch double that answers without headers) is a GatewayError, not a verdict on the file', async () => {
    const fetchAudio = (async () => ({ status: 200, body: null })) as unknown as AudioFetch
    const error = await errorOf(checkAudio$('https://cdn.example.com/a.wav', { fetch: fetchAudio }))
    expect(isGatewayError(error)).toBe(true)
    expect(isInvalidRequestError(error)).toBe(false)
    expect((error as Error).message).toMatch(/^Unexpected failure: TypeError: /)
  })
})

describe('checkAudio$: nothing after the end', () => {
  const late: unknown[] = []
  afterEach(() => {
    config.onStoppedNotification = null
    late.length = 0
  })
  /** Records every notification sent to a subscriber that has already stopped (rxjs reports them a timer later). */
  const watchLate = () => (config.onStoppedNotification = (notification) => void late.push(notification))
  const flushLate = () => new Promise((resolve) => setTimeout(resolve, 0))

  /** A host whose HEAD waits for the test (and ignores the abort unless told), and whose GETs serve `file` at once. */
  function heldHead(file: Uint8Array, { failOnAbort = false } = {}) {
    const host = fakeHost(file)
    let answer!: (reply: AudioReply) => void
    const signals: AbortSignal[] = []
    const fetchAudio: AudioFetch = (url, init) => {
      signals.push(init.signal)
      if (init.method !== 'HEAD') return host.fetch(url, init)
      return new Promise((resolve, reject) => {
        answer = resolve
        if (failOnAbort) init.signal.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')))
      })
    }
    return { fetchAudio, signals, answerHead: (status: number) => answer(reply(status, { 'content-length': String(file.length) }, null)) }
  }

  it('a check that passed or failed aborts nothing afterwards', async () => {
    const host = fakeHost(toneWav(5))
    await firstValueFrom(checkAudio$('https://cdn.example.com/a.wav', { fetch: host.fetch }))
    const gone: AbortSignal[] = []
    const fetchAudio: AudioFetch = async (_, init) => (gone.push(init.signal), reply(404, {}, null))
    await errorOf(checkAudio$('https://cdn.example.com/gone.wav', { fetch: fetchAudio }))
    await settle()
    expect(host.inits.map((i) => i.signal.aborted)).toEqual([false, false])
    expect(gone.map((s) => s.aborted)).toEqual([false, false])
  })

  it('after unsubscribing, a fetch that answers anyway delivers nothing', async () => {
    watchLate()
    const held = heldHead(toneWav(5))
    const o = observe(checkAudio$('https://cdn.example.com/a.wav', { fetch: held.fetchAudio }))
    await settle() // the name is looked up first; then the HEAD is in flight
    o.subscription.unsubscribe()
    expect(held.signals[0]!.aborted).toBe(true)
    held.answerHead(200)
    await settle()
    await flushLate()
    expect(late).toEqual([])
    expect(o).toMatchObject({ values: [], error: undefined, completed: false })
  })

  it('after unsubscribing, the aborted fetch\'s failure delivers nothing', async () => {
    watchLate()
    const held = heldHead(toneWav(5), { failOnAbort: true })
    const o = observe(checkAudio$('https://cdn.example.com/a.wav', { fetch: held.fetchAudio }))
    await settle() // the name is looked up first; then the HEAD is in flight
    expect(held.signals).toHaveLength(1)
    o.subscription.unsubscribe()
    await settle()
    await flushLate()
    expect(late).toEqual([])
    expect(o.error).toBeUndefined()
  })

  it('past the time limit, only the timeout error: the aborted fetch\'s failure adds nothing', async () => {
    watchLate()
    const clock = new VirtualClock()
    const held = heldHead(toneWav(5), { failOnAbort: true })
    const o = observe(checkAudio$('https://cdn.example.com/a.wav', { fetch: held.fetchAudio, timeoutMs: 1_000, scheduler: clock }))
    await settle() // the name is looked up first; then the HEAD is in flight
    clock.advance(1_000)
    expect(held.signals[0]!.aborted).toBe(true)
    expect(issueOf(o.error)).toMatch(/^could not be read: nothing within 1000 ms/)
    await settle()
    await flushLate()
    expect(late).toEqual([])
  })
})
