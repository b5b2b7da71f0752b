import { ascii, u32le } from './byteFields.js'
import { need, notAudio, other, type HeaderFacts, type Sniff } from './headerFacts.js'
import type { KnownBytes } from './knownBytes.js'

/** Chunks walked before giving up on `data`: real files have a handful (`fmt `, `fact`, `LIST`, `bext`, `id3 `…). */
const MAX_CHUNKS = 64
/** The `data` size a writer leaves when it streams and cannot go back to fill it in. */
const UNKNOWN_LENGTH = 0xffffffff

/**
 * Reads a RIFF file that starts with `RIFF`: a WAV when its form type is
 * `WAVE` (an AVI or WebP is `other`). The length is the `data` chunk's size
 * over the `fmt ` chunk's byte rate, found by walking the chunks from byte
 * 12 (each an id, a 32-bit little-endian size and its bytes, padded to an
 * even length), so `LIST`, `fact` or any other chunk before `data` is
 * skipped. When `data` lies beyond the bytes known, it asks for the next
 * chunk header; without it, the file is a WAV of unknown length.
 *
 * A `data` size of 0 or 0xFFFFFFFF (left by streaming writers), or larger
 * than the file, is replaced by the bytes the file holds after the chunk
 * header when `size` is known; otherwise the length is unknown.
 *
 * @example
 * ```ts
 * conclude(sniffWav(prefixOf(header44), 80_044)) // { format: 'wav', seconds: 5 } for 16,000 bytes a second
 * ```
 */
export function sniffWav(bytes: KnownBytes, size?: number): Sniff {
  const riff = bytes.get(0, 12)
  if (!riff) return need(0, 12, other(bytes))
  if (ascii(riff, 0, 4) !== 'RIFF' || ascii(riff, 8, 4) !== 'WAVE') return notAudio(bytes)
  const wav: HeaderFacts = { format: 'wav' }
  let byteRate: number | undefined
  let at = 12
  for (let n = 0; n < MAX_CHUNKS; n++) {
    const header = bytes.get(at, 8)
    if (!header) return need(at, 8, wav)
    const id = ascii(header, 0, 4)
    const length = u32le(header, 4)
    if (id === 'fmt ') {
      // Format tag, channels, sample rate, then the byte rate.
      const fmt = bytes.get(at + 8, 12)
      if (!fmt) return need(at + 8, 12, wav)
      byteRate = u32le(fmt, 8)
    } else if (id === 'data') {
      const seconds = secondsOf(length, at + 8, byteRate, size)
      return seconds === undefined ? wav : { format: 'wav', seconds }
    }
    at += 8 + length + (length & 1)
  }
  return wav
}

function secondsOf(declared: number, dataAt: number, byteRate: number | undefined, size: number | undefined): number | undefined {
  if (!byteRate) return undefined // no `fmt ` before `data`, or a broken one
  const held = size === undefined ? undefined : Math.max(0, size - dataAt)
  const placeholder = declared === 0 || declared === UNKNOWN_LENGTH
  if (held === undefined) return placeholder ? undefined : declared / byteRate
  // What plays is what the file holds: a cut file holds less than it declares.
  return (placeholder ? held : Math.min(declared, held)) / byteRate
}
