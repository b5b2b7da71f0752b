import { describe, expect, it } from 'vitest'
import { HEAD_BYTES, readAudio } from '../../src/audio/readAudio.js'
import { chunk, concat, fmt, frame, HEADERS, id3, latin1, toneWav, u32le, wav, xing } from './fixtures.js'
import { fakeHost, type FakeBehaviour } from './fakeHost.js'

const URL = 'https://cdn.example.com/voice.wav'
const FIRST = `GET bytes=0-${HEAD_BYTES - 1}`

async function probe(file: Uint8Array, behaviour: FakeBehaviour = {}) {
  const host = fakeHost(file, behaviour)
  const facts = await readAudio(host.fetch, URL, new AbortController().signal)
  return { facts, host }
}

describe('readAudio: the size', () => {
  it('takes HEAD\'s Content-Length on any 2xx answer', async () => {
    const file = toneWav(5)
    for (const status of [200, 299]) {
      const { facts } = await probe(file, { head: { status }, rangeTotal: false })
      expect(facts, `HEAD ${status}`).toStrictEqual({ format: 'wav', seconds: 5, bytes: file.length })
    }
  })

  it('ignores the length of a HEAD answered outside 2xx (an error page\'s), and takes the GET\'s Content-Range total', async () => {
    const file = toneWav(5)
    for (const status of [0, 300, 403, 405]) {
      const { facts } = await probe(file, { head: { status, length: 12 } })
      expect(facts, `HEAD ${status}`).toStrictEqual({ format: 'wav', seconds: 5, bytes: file.length })
    }
  })

  it('leaves the size out when neither HEAD nor the GET gives it', async () => {
    const { facts } = await probe(toneWav(5), { head: { status: 200, length: null }, rangeTotal: false })
    expect(facts).toStrictEqual({ format: 'wav', seconds: 5 })
  })

  it('an empty file: HEAD refused, the range answered 416 with the size 0', async () => {
    const { facts, host } = await probe(new Uint8Array(0), { head: { status: 405 } })
    expect(facts).toStrictEqual({ format: 'other', start: new Uint8Array(0), bytes: 0 })
    expect(host.asked).toEqual(['HEAD -', FIRST])
  })

  it('a file shorter than the header it starts: what arrived, and no further request', async () => {
    const { facts, host } = await probe(latin1('RIFF\0\0'))
    expect(facts).toStrictEqual({ format: 'other', start: latin1('RIFF\0\0'), bytes: 6 })
    expect(host.asked).toEqual(['HEAD -', FIRST])
  })
})

describe('readAudio: asks for later windows only where the header goes on', () => {
  it('reads a window that ends exactly where the file ends', async () => {
    // fmt, a 6,000-byte LIST, then a data header as the file's last 8 bytes: it holds no sound.
    const file = wav([fmt(), chunk('LIST', new Uint8Array(6_000))], 0, 16_000)
    const dataAt = file.length - 8
    const { facts, host } = await probe(file)
    expect(facts).toStrictEqual({ format: 'wav', seconds: 0, bytes: file.length })
    expect(host.asked).toEqual(['HEAD -', FIRST, `GET bytes=${dataAt}-${dataAt + 511}`])
  })

  it('asks for no chunk header that the file\'s size shows would run past its end', async () => {
    // The LIST chunk says the next header starts 4 bytes before the end of the file.
    const whole = wav([fmt(), chunk('LIST', new Uint8Array(6_000))], 0)
    const file = whole.subarray(0, whole.length - 4)
    const { facts, host } = await probe(file)
    expect(facts).toStrictEqual({ format: 'wav', bytes: file.length })
    expect(host.asked).toEqual(['HEAD -', FIRST])
  })

  it('with no size anywhere, the end of a window\'s body marks the end of the file', async () => {
    // A LIST pushes the next header to 5,000; there a chunk declares 200 bytes, but the file ends 100 bytes in.
    const head = wav([fmt(), chunk('LIST', new Uint8Array(4_956))], 0).subarray(0, 5_000)
    expect(head.length).toBe(5_000)
    const file = concat(head, latin1('junk'), u32le(200), new Uint8Array(100))
    const { facts, host } = await probe(file, { head: { status: 200, length: null }, rangeTotal: false })
    expect(facts).toStrictEqual({ format: 'wav' })
    expect(host.asked).toEqual(['HEAD -', FIRST, 'GET bytes=5000-5511'])
  })

  it('a server that honours the first range but sends the whole file for a later one: that reply is closed, and without a frame header seen it is not an MP3', async () => {
    const file = concat(id3(60_000), frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 300) }), new Uint8Array(300 * 417))
    const { facts, host } = await probe(file, { honoursRange: (nth) => nth === 0, chunk: 1024 })
    expect(facts).toStrictEqual({ format: 'other', start: file.slice(0, 8), bytes: file.length })
    expect(host.asked).toEqual(['HEAD -', FIRST, 'GET bytes=60010-60521'])
    expect(host.bodies[1]).toEqual({ pulled: 0, cancelled: true })
  })
})

describe('readAudio: reads no more of a window than it needs', () => {
  it('stops reading the first window as soon as the header goes on beyond it, and closes it', async () => {
    const tag = concat(id3(60_000), frame(HEADERS.mpeg1Mono, 417, { at: 21, bytes: xing('Info', 300) }))
    // A LIST ending 6 bytes before the end of the 4 KB: the next chunk header straddles it.
    const straddling = wav([chunk('LIST', new Uint8Array(4_070)), fmt()], 16_000 * 5)
    for (const file of [tag, straddling]) {
      const { host } = await probe(file, { chunk: 64 })
      expect(host.bodies[0]).toEqual({ pulled: 1, cancelled: true })
      expect(host.asked).toHaveLength(3)
    }
  })

  it('reads on to the end of the window for a header that ends exactly there, and asks for nothing more', async () => {
    // fmt, then a LIST that puts the data header at bytes 4088 to 4096.
    const file = wav([fmt(), chunk('LIST', new Uint8Array(4_044))], 16_000 * 5)
    const { facts, host } = await probe(file, { chunk: 64 })
    expect(facts).toStrictEqual({ format: 'wav', seconds: 5, bytes: file.length })
    expect(host.asked).toEqual(['HEAD -', FIRST])
    expect(host.bodies[0]!.pulled).toBe(HEAD_BYTES / 64)
  })

  it('of a server that ignores ranges, takes the first 4 KB only, however its chunks fall', async () => {
    // The data header starts at 4094, 2 bytes before the end of the 4 KB; the chunks are 3,000 bytes.
    const file = wav([chunk('LIST', new Uint8Array(4_050)), fmt()], 16_000 * 5)
    const { facts, host } = await probe(file, { honoursRange: () => false, chunk: 3_000 })
    expect(facts).toStrictEqual({ format: 'wav', bytes: file.length })
    expect(host.asked).toEqual(['HEAD -', FIRST])
    expect(host.bodies[0]).toEqual({ pulled: 2, cancelled: true })
  })
})
