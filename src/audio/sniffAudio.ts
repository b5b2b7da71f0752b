import { ascii } from './byteFields.js'
import { need, notAudio, other, type Sniff } from './headerFacts.js'
import type { KnownBytes } from './knownBytes.js'
import { sniffMp3 } from './mp3Header.js'
import { isFrameSync } from './mpegFrame.js'
import { sniffWav } from './wavHeader.js'

/**
 * Decides from the bytes known so far whether a file is WAV or MP3, and,
 * where the header allows it, its length. The format comes from the bytes
 * only (never the name or content type): WAV is `RIFF`…`WAVE`; MP3 is an
 * ID3v2 tag followed by an MPEG audio frame header, or a frame header at
 * byte 0. Anything else is `other`. `size` (the whole file's, when known)
 * times a WAV whose `data` size is a placeholder and a constant-bitrate MP3
 * without a Xing/Info tag; without it their length is unknown.
 *
 * Works on any prefix: when the bytes end inside something it needs, it
 * answers with the bytes it needs (see `needsBytes`) instead of guessing,
 * and a decided answer does not change when more bytes arrive.
 *
 * @example
 * ```ts
 * sniffAudio(prefixOf(wav.subarray(0, 3)))  // { need: { offset: 0, length: 4 }, otherwise: { format: 'other', … } }
 * sniffAudio(prefixOf(wav), wav.length)     // { format: 'wav', seconds: 5 }
 * sniffAudio(prefixOf(png))                 // { format: 'other', start: Uint8Array [0x89, 0x50, 0x4e, 0x47, …] }
 * ```
 */
export function sniffAudio(bytes: KnownBytes, size?: number): Sniff {
  const start = bytes.get(0, 4)
  if (!start) return need(0, 4, other(bytes))
  if (ascii(start, 0, 4) === 'RIFF') return sniffWav(bytes, size)
  if (ascii(start, 0, 3) === 'ID3' || isFrameSync(start)) return sniffMp3(bytes, size)
  return notAudio(bytes)
}
