/**
 * Writes valid MPEG-1 Layer III files of silence: 48 kHz, 32 kbit/s, mono,
 * so every frame is 96 bytes and lasts 24 ms (1152 samples). Each frame is
 * a real header followed by zeros, which decoders play as silence (all
 * side information zero: no bits in either granule).
 */

/** Frame header: sync, MPEG-1, Layer III, no CRC | 32 kbit/s, 48 kHz, no padding | mono. */
const HEADER = [0xff, 0xfb, 0x14, 0xc0]
/** Bytes in each frame: 144 × 32000 / 48000. */
export const MP3_FRAME_BYTES = 96
/** Seconds in each frame: 1152 / 48000. */
export const MP3_FRAME_SECONDS = 0.024
/** Side information of an MPEG-1 mono frame; the Xing/Info tag follows it. */
const SIDE_INFO_BYTES = 17

/** Which header the file carries: a LAME-style `Info` frame (frame count), none (duration from the constant bitrate), or an ID3v2 tag then an `Info` frame. */
export type Mp3Variant = 'info' | 'cbr' | 'id3'

/**
 * The bytes of an MP3 of about `seconds` (rounded to whole 24 ms frames).
 *
 * @example
 * ```ts
 * toneMp3(3, 'info').length // 96 × (125 frames + the Info frame) = 12096
 * ```
 */
export function toneMp3(seconds: number, variant: Mp3Variant = 'info'): Buffer {
  const frames = Math.round(seconds / MP3_FRAME_SECONDS)
  const audio = Buffer.alloc(frames * MP3_FRAME_BYTES)
  for (let i = 0; i < frames; i++) audio.set(HEADER, i * MP3_FRAME_BYTES)
  if (variant === 'cbr') return audio
  const info = infoFrame(frames, (frames + 1) * MP3_FRAME_BYTES)
  return Buffer.concat(variant === 'id3' ? [id3Tag(), info, audio] : [info, audio])
}

/** A frame holding the `Info` tag (what LAME writes for constant bitrate): flags for frames and bytes, then both counts. */
function infoFrame(frames: number, bytes: number): Buffer {
  const frame = Buffer.alloc(MP3_FRAME_BYTES)
  frame.set(HEADER, 0)
  const at = 4 + SIDE_INFO_BYTES
  frame.write('Info', at, 'latin1')
  frame.writeUInt32BE(0x3, at + 4)
  frame.writeUInt32BE(frames, at + 8)
  frame.writeUInt32BE(bytes, at + 12)
  return frame
}

/**
 * An ID3v2.4 tag with a title frame and 2 KB of padding, so the first audio
 * frame lies beyond the first kilobyte (a reader must skip the tag).
 */
function id3Tag(): Buffer {
  const title = Buffer.from('\x03Simulator tone', 'latin1') // encoding 3 (UTF-8), then the text
  const frame = Buffer.concat([Buffer.from('TIT2', 'latin1'), syncsafe(title.length), Buffer.from([0, 0]), title])
  const body = Buffer.concat([frame, Buffer.alloc(2048)])
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]), syncsafe(body.length), body])
}

/** A 28-bit number in four 7-bit bytes, as ID3v2 sizes are written. */
function syncsafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f])
}
