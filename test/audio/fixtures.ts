import { expect } from 'vitest'
import { conclude, needsBytes, type HeaderFacts, type Sniff } from '../../src/audio/headerFacts.js'
import { byteWindows, prefixOf } from '../../src/audio/knownBytes.js'
import { sniffAudio } from '../../src/audio/sniffAudio.js'

// Audio files written by hand from the formats' own layouts (RIFF/WAVE,
// ID3v2, MPEG audio frame headers, Xing/Info and VBRI tags), not with the
// simulator's writers, so the two sides stay independent.

export const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
export const u16le = (n: number) => Uint8Array.of(n & 255, (n >> 8) & 255)
export const u32le = (n: number) => Uint8Array.of(n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255)
export const u32be = (n: number) => Uint8Array.of((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255)

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) out.set(p, (at += p.length) - p.length)
  return out
}

/** A RIFF chunk: id, little-endian size, payload, and the pad byte of an odd size. */
export const chunk = (id: string, payload: Uint8Array) => concat(latin1(id), u32le(payload.length), payload, new Uint8Array(payload.length & 1))

/** A PCM `fmt ` chunk. */
export function fmt({ channels = 1, sampleRate = 8_000, bits = 16 } = {}): Uint8Array {
  const block = (channels * bits) / 8
  return chunk('fmt ', concat(u16le(1), u16le(channels), u32le(sampleRate), u32le(sampleRate * block), u16le(block), u16le(bits)))
}

/**
 * A WAV: `RIFF`, `WAVE`, the chunks given (a `fmt ` among them, or not),
 * then a `data` chunk declaring `declared` bytes and holding `dataBytes` zeros.
 */
export function wav(chunks: Uint8Array[], dataBytes: number, declared = dataBytes): Uint8Array {
  const body = concat(latin1('WAVE'), ...chunks, latin1('data'), u32le(declared))
  return concat(latin1('RIFF'), u32le(body.length + dataBytes), body, new Uint8Array(dataBytes))
}

/** `seconds` of 16-bit mono 8 kHz PCM (16,000 bytes a second), with a LIST chunk of odd size before `fmt `. */
export function toneWav(seconds: number): Uint8Array {
  return wav([chunk('LIST', latin1('INFOISFT\x05\x00\x00\x00rxgt\x00')), fmt()], seconds * 16_000)
}

/** Frame headers: MPEG-1 Layer III 128 kbit/s 44.1 kHz joint stereo; the same in mono; MPEG-2 Layer III 64 kbit/s 22.05 kHz mono; MPEG-1 Layer II 192 kbit/s 48 kHz stereo. */
export const HEADERS = {
  mpeg1Stereo: [0xff, 0xfb, 0x90, 0x44],
  mpeg1Mono: [0xff, 0xfb, 0x90, 0xc4],
  mpeg2Mono: [0xff, 0xf3, 0x80, 0xc4],
  layer2: [0xff, 0xfd, 0xa4, 0x04],
  freeFormat: [0xff, 0xfb, 0x00, 0x44],
} as const

/** One frame of `length` bytes: the header, zeros, and `tag` at `tagAt` from the frame's start. */
export function frame(header: readonly number[], length: number, tag?: { at: number; bytes: Uint8Array }): Uint8Array {
  const out = new Uint8Array(length)
  out.set(header)
  if (tag) out.set(tag.bytes, tag.at)
  return out
}

/** A Xing or Info tag with the frame count (flag 1) and byte count (flag 2). */
export const xing = (id: 'Xing' | 'Info', frames: number, flags = 3) => concat(latin1(id), u32be(flags), u32be(frames), u32be(frames * 417))

/** A VBRI tag: version 1, delay, quality, bytes, then the frame count. */
export const vbri = (frames: number) => concat(latin1('VBRI'), Uint8Array.of(0, 1, 0x04, 0x60, 0, 75), u32be(frames * 417), u32be(frames))

/** An ID3v2 tag (`major` 2 to 4) whose body is `bodyBytes` long (a TIT2 frame, then padding), with a footer when asked. */
export function id3(bodyBytes: number, { major = 4, footer = false } = {}): Uint8Array {
  const syncsafe = (n: number) => Uint8Array.of((n >> 21) & 127, (n >> 14) & 127, (n >> 7) & 127, n & 127)
  const body = new Uint8Array(bodyBytes)
  body.set(concat(latin1('TIT2'), syncsafe(6), Uint8Array.of(0, 0, 3), latin1('tone\x00')).subarray(0, bodyBytes))
  const header = concat(latin1('ID3'), Uint8Array.of(major, 0, footer ? 0x10 : 0), syncsafe(bodyBytes))
  return concat(header, body, footer ? concat(latin1('3DI'), header.subarray(3)) : new Uint8Array(0))
}

/** First bytes of formats that are not audio. */
export const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
export const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0])

/** The answer for the whole file at once: nothing more will come. */
export const wholeAnswer = (file: Uint8Array, size?: number): HeaderFacts => conclude(sniffAudio(prefixOf(file), size))

/**
 * Feeds `file` to {@link sniffAudio} in the pieces between `cuts`, asking
 * after each piece, and checks what a parser on a prefix must do: until
 * decided it asks for bytes it does not have yet; once decided it says what
 * it says for the whole file, and keeps saying it. Returns the answers.
 */
export function expectPiecesAgree(file: Uint8Array, cuts: readonly number[], size?: number): Sniff[] {
  const whole = wholeAnswer(file, size)
  const known = byteWindows()
  const answers: Sniff[] = []
  const bounds = [...new Set([0, ...cuts.filter((c) => c > 0 && c < file.length), file.length])].sort((a, b) => a - b)
  for (let i = 1; i < bounds.length; i++) {
    known.add(bounds[i - 1]!, file.subarray(bounds[i - 1], bounds[i]))
    const answer = sniffAudio(known, size)
    answers.push(answer)
    if (needsBytes(answer)) expect(answer.need.offset + answer.need.length, `asks for bytes it has, after ${bounds[i]}`).toBeGreaterThan(bounds[i]!)
    else expect(answer, `decided differently after ${bounds[i]} bytes`).toEqual(whole)
    if (i > 1 && !needsBytes(answers[i - 2]!)) expect(needsBytes(answer), `undecided again after ${bounds[i]}`).toBe(false)
  }
  expect(conclude(answers.at(-1)!)).toEqual(whole)
  return answers
}

/** Every way of cutting the first `upTo` bytes in two, and byte by byte. */
export function expectEverySplitAgrees(file: Uint8Array, size: number | undefined, upTo = 160): void {
  for (let cut = 1; cut < Math.min(file.length, upTo); cut++) expectPiecesAgree(file, [cut], size)
  expectPiecesAgree(file, Array.from({ length: Math.min(file.length, upTo) }, (_, i) => i + 1), size)
}
