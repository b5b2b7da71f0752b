import { describe, expect, it } from 'vitest'
import { simulator } from './helpers.js'

const get = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, init)
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

/** Frames of the simulator's MP3s, read by hand: MPEG-1 Layer III, 32 kbit/s, 48 kHz, mono, 96 bytes each. */
function mp3Frames(bytes: Buffer, from = 0): number {
  let count = 0
  for (let at = from; at < bytes.length; at += 96, count++) expect([...bytes.subarray(at, at + 4)]).toEqual([0xff, 0xfb, 0x14, 0xc0])
  expect((bytes.length - from) % 96).toBe(0)
  return count
}

describe('simulator: audio samples under /samples/ (no token)', () => {
  it.each([5, 2, 31, 3, 30])('serves tone-%ss.wav: PCM 16-bit mono 8 kHz of that length', async (seconds) => {
    const sim = await simulator()
    const { res, bytes } = await get(sim.sampleUrl(`tone-${seconds}s.wav`))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/wav')
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(bytes.length).toBe(44 + seconds * 16_000)
    expect(bytes.toString('latin1', 0, 4)).toBe('RIFF')
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8)
    expect(bytes.toString('latin1', 8, 16)).toBe('WAVEfmt ')
    expect([bytes.readUInt16LE(20), bytes.readUInt16LE(22), bytes.readUInt32LE(24), bytes.readUInt32LE(28), bytes.readUInt16LE(32), bytes.readUInt16LE(34)]).toEqual([1, 1, 8000, 16000, 2, 16])
    expect(bytes.toString('latin1', 36, 40)).toBe('data')
    expect(bytes.readUInt32LE(40)).toBe(seconds * 16_000)
    expect(bytes.subarray(44).some((b) => b !== 0)).toBe(true) // a tone, not silence
  })

  it('serves MP3s of real MPEG-1 Layer III frames, with an Info frame, without one (CBR), or after an ID3v2 tag', async () => {
    const sim = await simulator()
    const info = (await get(sim.sampleUrl('tone-5s.mp3'))).bytes
    expect(mp3Frames(info)).toBe(1 + 208) // 5 s ≈ 208 × 24 ms, plus the Info frame
    expect(info.toString('latin1', 21, 25)).toBe('Info')
    expect(info.readUInt32BE(25) & 1).toBe(1)
    expect(info.readUInt32BE(29)).toBe(208)
    const cbr = (await get(sim.sampleUrl('tone-5s-cbr.mp3'))).bytes
    expect(mp3Frames(cbr)).toBe(208)
    expect(cbr.includes('Info')).toBe(false)
    const tagged = (await get(sim.sampleUrl('tone-5s-id3.mp3'))).bytes
    expect(tagged.toString('latin1', 0, 3)).toBe('ID3')
    const tagSize = (tagged[6]! << 21) | (tagged[7]! << 14) | (tagged[8]! << 7) | tagged[9]!
    expect(10 + tagSize).toBeGreaterThan(1024)
    expect(mp3Frames(tagged, 10 + tagSize)).toBe(209)
    const res = await fetch(sim.sampleUrl('tone-5s.mp3'), { method: 'HEAD' })
    expect([res.headers.get('content-type'), res.headers.get('content-length')]).toEqual(['audio/mpeg', String(info.length)])
  })

  it('serves too-large.wav: a valid WAV declared and streamed at 16 MiB, with HEAD and ranges', async () => {
    const sim = await simulator()
    const head = await fetch(sim.sampleUrl('too-large.wav'), { method: 'HEAD' })
    expect([head.status, head.headers.get('content-length'), head.headers.get('accept-ranges')]).toEqual([200, String(16 * 1024 * 1024), 'bytes'])
    const { res, bytes } = await get(sim.sampleUrl('too-large.wav'), { headers: { range: 'bytes=0-43' } })
    expect([res.status, res.headers.get('content-range'), res.headers.get('content-length')]).toEqual([206, 'bytes 0-43/16777216', '44'])
    expect(bytes.toString('latin1', 0, 4) + bytes.toString('latin1', 8, 12)).toBe('RIFFWAVE')
    expect([bytes.readUInt16LE(22), bytes.readUInt32LE(24), bytes.readUInt16LE(34)]).toEqual([2, 96_000, 24])
    expect(bytes.readUInt32LE(40) / bytes.readUInt32LE(28)).toBeCloseTo(29.13, 1)
    const whole = await fetch(sim.sampleUrl('too-large.wav'))
    let size = 0
    for (const reader = whole.body!.getReader(); ; ) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.length
    }
    expect(size).toBe(16 * 1024 * 1024)
  })

  it('serves image.mp3: a PNG named like an MP3', async () => {
    const sim = await simulator()
    const { res, bytes } = await get(sim.sampleUrl('image.mp3'))
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  })

  it('answers a range of the first kilobyte, and 404 for unknown samples', async () => {
    const sim = await simulator()
    const { res, bytes } = await get(sim.sampleUrl('tone-5s.wav'), { headers: { range: 'bytes=0-1023' } })
    expect([res.status, res.headers.get('content-range'), bytes.length]).toEqual([206, 'bytes 0-1023/80044', 1024])
    for (const name of ['nothing.wav', 'tone-601s.wav', 'tone-5s-cbr.wav', 'tone-s.wav']) expect((await fetch(sim.sampleUrl(name))).status).toBe(404)
  })
})
