import { describe, expect, it } from 'vitest'
import { audioProblem } from '../../src/sim/audioRules.js'
import { createAudioSniffer, sniffAudio, sniffFrameWindow, type AudioFacts } from '../../src/sim/audioSniff.js'

/** A WAV header written by hand: RIFF, WAVE, an odd-sized LIST chunk (padded), fmt, data. */
function handWav(byteRate: number, dataBytes: number): Buffer {
  const list = Buffer.concat([Buffer.from('LIST'), u32le(5), Buffer.from('INFOx'), Buffer.alloc(1)])
  const fmt = Buffer.concat([Buffer.from('fmt '), u32le(16), u16le(1), u16le(2), u32le(byteRate / 4), u32le(byteRate), u16le(4), u16le(16)])
  const data = Buffer.concat([Buffer.from('data'), u32le(dataBytes)])
  const body = Buffer.concat([Buffer.from('WAVE'), list, fmt, data])
  return Buffer.concat([Buffer.from('RIFF'), u32le(body.length + dataBytes), body, Buffer.alloc(64)])
}

/** An MPEG frame header by hand, then `tag` at the Xing position, padded. */
function handMpeg(header: number[], tagAt: number, tag: Buffer, length = 400): Buffer {
  const frame = Buffer.alloc(length)
  frame.set(header)
  tag.copy(frame, tagAt)
  return frame
}

const u32le = (n: number) => Buffer.from(Uint32Array.of(n).buffer)
const u16le = (n: number) => Buffer.from(Uint16Array.of(n).buffer)
const u32be = (n: number) => Buffer.from([n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255])

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
const MPEG1_MONO_INFO = handMpeg([0xff, 0xfb, 0x90, 0xc0], 21, Buffer.concat([Buffer.from('Info'), u32be(1), u32be(1250)])) // 128 kbit/s 44.1 kHz
const MPEG1_STEREO_XING = handMpeg([0xff, 0xfb, 0x90, 0x00], 36, Buffer.concat([Buffer.from('Xing'), u32be(3), u32be(383)]))
const MPEG2_MONO_XING = handMpeg([0xff, 0xf3, 0x40, 0xc0], 13, Buffer.concat([Buffer.from('Xing'), u32be(1), u32be(1000)])) // MPEG-2 L3, 22.05 kHz: 576 samples a frame
const VBRI = handMpeg([0xff, 0xfb, 0x90, 0x00], 36, Buffer.concat([Buffer.from('VBRI'), Buffer.alloc(10), u32be(100)]))
const CBR = handMpeg([0xff, 0xfb, 0x50, 0xc0], 0, Buffer.alloc(0)) // 64 kbit/s 44.1 kHz, no tag
const ID3_THEN_FRAME = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0x01, 0x00]), Buffer.alloc(128), MPEG1_MONO_INFO])

const CASES: [string, Buffer, number | undefined, AudioFacts][] = [
  ['a hand-written WAV with a padded LIST chunk', handWav(32_000, 320_000), undefined, { format: 'wav', seconds: 10 }],
  ['a WAV whose data size is unknown (0xFFFFFFFF)', handWav(32_000, 0xffffffff), undefined, { format: 'wav' }],
  ['an MPEG-1 mono Info frame', MPEG1_MONO_INFO, undefined, { format: 'mp3', seconds: (1250 * 1152) / 44_100 }],
  ['an MPEG-1 stereo Xing frame', MPEG1_STEREO_XING, undefined, { format: 'mp3', seconds: (383 * 1152) / 44_100 }],
  ['an MPEG-2 mono Xing frame', MPEG2_MONO_XING, undefined, { format: 'mp3', seconds: (1000 * 576) / 22_050 }],
  ['a VBRI frame', VBRI, undefined, { format: 'mp3', seconds: (100 * 1152) / 44_100 }],
  ['a CBR frame with the file size known', CBR, 80_000, { format: 'mp3', seconds: (80_000 * 8) / 64_000 }],
  ['an ID3v2 tag, then an Info frame', ID3_THEN_FRAME, undefined, { format: 'mp3', seconds: (1250 * 1152) / 44_100 }],
  ['an ID3v2 tag followed by zeros, no MPEG frame', Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0x01, 0x00]), Buffer.alloc(512)]), undefined, { format: 'unknown', start: '49 44 33 03' }],
  ['a PNG', PNG, undefined, { format: 'unknown', start: '89 50 4e 47' }],
  ['a RIFF file that is not WAVE (AVI)', Buffer.concat([Buffer.from('RIFF'), u32le(100), Buffer.from('AVI LIST')]), undefined, { format: 'unknown', start: '52 49 46 46' }],
  ['a frame sync with a reserved version', Buffer.from([0xff, 0xeb, 0x90, 0x00, 0, 0, 0, 0]), undefined, { format: 'unknown', start: 'ff eb 90 00' }],
]

describe('audio header parsing, split at awkward byte boundaries', () => {
  it.each(CASES)('reads %s', (_, bytes, size, expected) => {
    const facts = sniffAudio(bytes, true, size)
    if ('seconds' in expected) expect((facts as { seconds: number }).seconds).toBeCloseTo(expected.seconds!, 6)
    expect(facts).toMatchObject({ format: expected.format })
    if (!('seconds' in expected)) expect(facts).toEqual(expected)
  })

  it.each(CASES)('gives the same answer for %s fed in two pieces split at every byte, and byte by byte', (_, bytes, size) => {
    const whole = sniffAudio(bytes, true, size)
    for (let split = 0; split <= Math.min(bytes.length, 200); split++) {
      const sniffer = createAudioSniffer(size)
      const early = sniffer.push(bytes.subarray(0, split))
      const facts = early ?? sniffer.push(bytes.subarray(split)) ?? sniffer.end()
      expect(facts, `split at ${split}`).toEqual(whole)
    }
    const sniffer = createAudioSniffer(size)
    let facts: AudioFacts | undefined
    for (let i = 0; i < bytes.length && !facts; i++) facts = sniffer.push(bytes.subarray(i, i + 1))
    expect(facts ?? sniffer.end()).toEqual(whole)
  })

  it('waits for the bytes it needs: mid-RIFF, mid-chunk header, mid-fmt, mid-frame header, before the Xing tag', () => {
    const wav = handWav(32_000, 320_000)
    for (const cut of [2, 10, 14, 30, 40, 50]) expect(sniffAudio(wav.subarray(0, cut), false)).toBe('more')
    for (const cut of [1, 3, 20, 30]) expect(sniffAudio(MPEG1_MONO_INFO.subarray(0, cut), false)).toBe('more')
    expect(sniffAudio(ID3_THEN_FRAME.subarray(0, 9), false)).toBe('more')
    expect(sniffAudio(PNG.subarray(0, 4), false)).toEqual({ format: 'unknown', start: '89 50 4e 47' })
  })

  it('decides with what it has at the end: a WAV cut before its data chunk has no length', () => {
    expect(sniffAudio(handWav(32_000, 320_000).subarray(0, 40), true)).toEqual({ format: 'wav' })
  })

  it('points past a long ID3 tag to where the first frame must be read, and reads it there', () => {
    const tag = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0x10, 0x00]), Buffer.alloc(2048)]) // 2048-byte tag
    const head = Buffer.concat([tag, MPEG1_MONO_INFO]).subarray(0, 1024)
    expect(sniffAudio(head, true)).toEqual({ format: 'mp3', frameAt: 2058 })
    expect(sniffFrameWindow(MPEG1_MONO_INFO, 2058).format).toBe('mp3')
    expect((sniffFrameWindow(MPEG1_MONO_INFO, 2058) as { seconds: number }).seconds).toBeCloseTo(32.65, 2)
    // Where the long tag ends in zeros instead of a frame, the file is not MP3.
    expect(sniffFrameWindow(Buffer.alloc(1024), 2058)).toEqual({ format: 'unknown', start: '00 00 00 00' })
  })
})

describe('custom audio rules (3 to 30 s, at most 15 MB, WAV or MP3)', () => {
  it.each([
    [3, undefined],
    [30, undefined],
    [2.999, 'audio is 2.999 s; allowed 3 to 30 s'],
    [30.001, 'audio is 30.001 s; allowed 3 to 30 s'],
    [31, 'audio is 31.0 s; allowed 3 to 30 s'],
    [2, 'audio is 2.0 s; allowed 3 to 30 s'],
  ])('a length of %s s: %s', (seconds, problem) => {
    expect(audioProblem({ format: 'wav', seconds }, 1000)).toBe(problem)
  })

  it('checks the size at the boundary, before the length, and the format first', () => {
    const MB = 1024 * 1024
    expect(audioProblem({ format: 'mp3', seconds: 10 }, 15 * MB)).toBeUndefined()
    expect(audioProblem({ format: 'mp3', seconds: 10 }, 15 * MB + 1)).toBe('audio is 15.0 MB; allowed at most 15 MB')
    expect(audioProblem({ format: 'wav', seconds: 99 }, 16 * MB)).toBe('audio is 16.0 MB; allowed at most 15 MB')
    expect(audioProblem({ format: 'unknown', start: '89 50 4e 47' }, 10)).toBe('audio is not WAV or MP3 (the file starts with bytes 89 50 4e 47)')
    expect(audioProblem({ format: 'mp3' }, undefined)).toBeUndefined()
  })
})
