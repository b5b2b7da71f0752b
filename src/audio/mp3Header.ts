import { ascii, u32be } from './byteFields.js'
import { need, notAudio, other, type HeaderFacts, type Sniff } from './headerFacts.js'
import type { KnownBytes } from './knownBytes.js'
import { readFrameHeader, type FrameHeader } from './mpegFrame.js'

/** An ID3v2 tag's header: `ID3`, version, flags, a 28-bit size. */
const ID3_HEADER = 10
/** Bytes of the first frame that hold either tag's frame count: a VBRI tag's ends 54 bytes in; a Xing/Info tag's sooner. */
const TAG_WINDOW = 54
/** Where a VBRI tag starts in its frame, whatever the side information. */
const VBRI_AT = 36

/**
 * Reads a file that starts like an MP3: an ID3v2 tag, skipped by the size
 * it declares, then an MPEG audio frame header; or a frame header at byte 0.
 * Without a valid frame header where one must be, the file is `other`. The
 * length comes from a Xing/Info tag (its frame count) or a VBRI tag in the
 * first frame; failing both, it is estimated from the frame's bitrate and
 * the file's `size`, as for constant bitrate (an ID3v1 tag at the end, 128
 * bytes, is counted as audio: an eighth of a second at 8 kbit/s, the lowest
 * bitrate, and far less at usual ones).
 *
 * When the tag ends beyond the bytes known, it asks for the frame there.
 * A file is an MP3 only once a valid frame header is seen: without one (the
 * file ends, the server sends no more, or the bytes there are zeros or
 * anything else), a tag alone is `other`, since a tag header and padding
 * are not audio.
 *
 * @example
 * ```ts
 * conclude(sniffMp3(prefixOf(infoFrame), 12_096)) // { format: 'mp3', seconds: 3 } from the Info tag's 125 frames
 * conclude(sniffMp3(prefixOf(cbrFrame), 7_968))   // { format: 'mp3', seconds: 1.992, estimated: true }
 * ```
 */
export function sniffMp3(bytes: KnownBytes, size?: number): Sniff {
  let audioAt = 0
  if (ascii(bytes.head(3), 0, 3) === 'ID3') {
    const tag = bytes.get(0, ID3_HEADER)
    if (!tag) return need(0, ID3_HEADER, other(bytes))
    const length = id3Length(tag)
    if (length === undefined) return notAudio(bytes)
    audioAt = ID3_HEADER + length + (tag[5]! & 0x10 ? 10 : 0) // a footer repeats the header at the end
    if (size !== undefined && audioAt + 4 > size) return notAudio(bytes) // a tag with no audio after it
  }
  const header = bytes.get(audioAt, 4)
  if (!header) return need(audioAt, 4, other(bytes))
  const frame = readFrameHeader(header)
  if (!frame) return notAudio(bytes)
  const estimate = estimated(frame, audioAt, size)
  const window = bytes.get(audioAt, TAG_WINDOW)
  if (!window) return need(audioAt, TAG_WINDOW, estimate)
  const frames = frameCount(window, frame)
  return frames ? { format: 'mp3', seconds: (frames * frame.samplesPerFrame) / frame.sampleRate } : estimate
}

/** The tag's size (after its header), or undefined when the header is not a valid ID3v2 one. */
function id3Length(tag: Uint8Array): number | undefined {
  const major = tag[3]!
  if (major < 2 || major > 4 || tag[4] === 0xff) return undefined
  const sizeBytes = tag.subarray(6, 10)
  // Sizes are "syncsafe": 7 bits a byte, so that no 0xFF inside the tag looks like a frame sync.
  if (sizeBytes.some((b) => b > 0x7f)) return undefined
  return sizeBytes.reduce((n, b) => n * 128 + b, 0)
}

/** The frame count of a Xing/Info tag (when its flags say it is there) or a VBRI tag in the first frame. */
function frameCount(window: Uint8Array, frame: FrameHeader): number | undefined {
  const xingAt = 4 + frame.sideInfoBytes
  const id = ascii(window, xingAt, 4)
  if (frame.layer === 3 && (id === 'Xing' || id === 'Info') && u32be(window, xingAt + 4) & 1) return u32be(window, xingAt + 8) || undefined
  if (ascii(window, VBRI_AT, 4) === 'VBRI') return u32be(window, VBRI_AT + 14) || undefined
  return undefined
}

/** The length at constant bitrate from the file's size; unknown without a size or in free format. */
function estimated(frame: FrameHeader, audioAt: number, size: number | undefined): HeaderFacts {
  if (size === undefined || frame.bitrate === 0) return { format: 'mp3' }
  return { format: 'mp3', seconds: ((size - audioAt) * 8) / frame.bitrate, estimated: true }
}
