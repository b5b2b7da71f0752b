import { describe, expect, it } from 'vitest'
import { Unreadable, type AudioFetch, type AudioReply } from '../../src/audio/audioHttp.js'
import { openRange, size, type OpenedRange } from '../../src/audio/openRange.js'
import { latin1 } from './fixtures.js'
import { countedBody, reply } from './fakeHost.js'

const URL = 'https://cdn.example.com/voice.wav'

function opening(answer: AudioReply) {
  const asked: string[] = []
  const fetchAudio: AudioFetch = async (_, init) => (asked.push(`${init.method} ${init.headers.range}`), answer)
  return { asked, opened: openRange(fetchAudio, URL, new AbortController().signal, 4096, 512) }
}

/** Every chunk of the range (at most 10, so that a body that never ends cannot hang the test). */
async function chunksOf(opened: OpenedRange): Promise<string[]> {
  const out: string[] = []
  for await (const chunk of opened.chunks) {
    out.push(String.fromCharCode(...chunk))
    if (out.length === 10) break
  }
  return out
}

describe('openRange: one ranged GET', () => {
  it('asks for the bytes from start to start + length - 1; a 206 is the range, with the total of its Content-Range', async () => {
    const body = countedBody(latin1('RIFFWAVE'), 3)
    const { asked, opened } = opening(reply(206, { 'content-range': 'bytes 4096-4103/80044' }, body.stream))
    const range = await opened
    expect(asked).toEqual(['GET bytes=4096-4607'])
    expect({ ranged: range.ranged, total: range.total }).toEqual({ ranged: true, total: 80_044 })
    expect(await chunksOf(range)).toEqual(['RIF', 'FWA', 'VE'])
  })

  it('a 206 whose Content-Range is hidden, gives no total or is not well formed: no total', async () => {
    for (const headers of [{}, { 'content-range': 'bytes 4096-4103/*' }, { 'content-range': 'bytes 4096-4103/80044x' }] as Record<string, string>[]) {
      const range = await opening(reply(206, headers, null)).opened
      expect(range.ranged).toBe(true)
      expect('total' in range, JSON.stringify(headers)).toBe(false)
      expect(await chunksOf(range)).toEqual([])
    }
  })

  it('a 200 is the whole file, its Content-Length the total', async () => {
    const range = await opening(reply(200, { 'content-length': '80044' }, countedBody(latin1('RIFF')).stream)).opened
    expect({ ranged: range.ranged, total: range.total }).toEqual({ ranged: false, total: 80_044 })
    expect(await chunksOf(range)).toEqual(['RIFF'])
  })

  it('a 416 (a range past the end) is an empty range, with the size of its Content-Range; its body is cancelled', async () => {
    const body = countedBody(latin1('<html>range not satisfiable</html>'))
    const range = await opening(reply(416, { 'content-range': 'bytes */0' }, body.stream)).opened
    expect({ ranged: range.ranged, total: range.total }).toEqual({ ranged: true, total: 0 })
    expect(await chunksOf(range)).toEqual([])
    expect(body.seen).toEqual({ pulled: 0, cancelled: true })
    const sized = await opening(reply(416, { 'content-range': 'bytes */80044' }, null)).opened
    expect(sized.total).toBe(80_044)
    for (const headers of [{}, { 'content-range': 'bytes */80044x' }] as Record<string, string>[]) {
      const bare = await opening(reply(416, headers, null)).opened
      expect('total' in bare, JSON.stringify(headers)).toBe(false)
    }
  })

  it('any other status: Unreadable naming it, not a network failure, and its body is cancelled', async () => {
    const body = countedBody(latin1('<html>not found</html>'))
    const error = await opening(reply(404, { 'content-length': '22' }, body.stream)).opened.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Unreadable)
    expect(error).toMatchObject({ reason: 'it answered HTTP 404', network: false })
    expect(body.seen).toEqual({ pulled: 0, cancelled: true })
  })

  it('a body that fails while it is read: Unreadable, not a network failure', async () => {
    let sent = false
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new TypeError('terminated'))
        sent = true
        controller.enqueue(latin1('RIFF'))
      },
    })
    const range = await opening(reply(206, { 'content-range': 'bytes 4096-4607/80044' }, failing)).opened
    const seen: string[] = []
    const error = await (async () => {
      for await (const chunk of range.chunks) seen.push(String.fromCharCode(...chunk))
    })().catch((e: unknown) => e)
    expect(seen).toEqual(['RIFF'])
    expect(error).toBeInstanceOf(Unreadable)
    expect(error).toMatchObject({ reason: 'the connection closed while it was being read', network: false })
  })

  it('close() cancels the body', async () => {
    const body = countedBody(latin1('RIFFWAVE'), 4)
    const range = await opening(reply(206, { 'content-range': 'bytes 4096-4103/80044' }, body.stream)).opened
    range.close()
    await Promise.resolve()
    expect(body.seen.cancelled).toBe(true)
  })
})

describe('size: a header\'s byte count', () => {
  it('is the count of a header made of digits (spaces around them allowed)', () => {
    expect(size('80044')).toEqual({ total: 80_044 })
    expect(size(' 0 ')).toEqual({ total: 0 })
  })

  it('is nothing for a missing header or one that is not a plain count', () => {
    for (const value of [null, undefined, '', ' ', '0x10', '1e3', '+12', '-5', '12.5', '12 34', 'x12', '99999999999999999999']) {
      expect(size(value), JSON.stringify(value)).toEqual({})
    }
  })
})
