/** What an MPEG audio frame header says. */
export interface FrameHeader {
  readonly bitrate: number
  readonly sampleRate: number
  readonly samplesPerFrame: number
  /** Offset from the header to a Xing/Info tag (Layer III only). */
  readonly xingOffset?: number
}

// kbit/s by bitrate index 1..14: MPEG-1 Layers I, II, III; MPEG-2/2.5 Layer I; MPEG-2/2.5 Layers II and III.
const BITRATES = {
  v1l1: [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
const RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as Record<number, number[]>

/** Parses the 4-byte frame header at `at`; undefined when it is not a valid one (free bitrate included). */
export function frameHeaderAt(bytes: Uint8Array, at: number): FrameHeader | undefined {
  const [b0, b1, b2, b3] = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
  if (b0 !== 0xff || b1 === undefined || b2 === undefined || b3 === undefined || (b1 & 0xe0) !== 0xe0) return undefined
  const version = (b1 >> 3) & 3 // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5, 1 reserved
  const layer = 4 - ((b1 >> 1) & 3) // 1, 2 or 3; 4 is reserved
  const index = b2 >> 4
  const sampleRate = RATES[version]?.[(b2 >> 2) & 3]
  if (version === 1 || layer === 4 || index === 0 || index === 15 || sampleRate === undefined) return undefined
  const v1 = version === 3
  const table = v1 ? [BITRATES.v1l1, BITRATES.v1l2, BITRATES.v1l3][layer - 1]! : layer === 1 ? BITRATES.v2l1 : BITRATES.v2l23
  const mono = b3 >> 6 === 3
  return {
    bitrate: table[index - 1]! * 1000,
    sampleRate,
    samplesPerFrame: layer === 1 ? 384 : layer === 3 && !v1 ? 576 : 1152,
    ...(layer === 3 ? { xingOffset: 4 + (v1 ? (mono ? 17 : 32) : mono ? 9 : 17) } : {}),
  }
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0

/** Bytes after a frame header needed to see a Xing/Info or VBRI tag. */
export const TAG_BYTES = 4 + 32 + 18

/**
 * The length in seconds of MPEG audio whose first frame is at `at` of
 * `bytes`: the frame count of a Xing/Info or VBRI tag, else an estimate from
 * the constant bitrate and the file's `size` (from `audioStart`); undefined
 * when neither is known. Expects `TAG_BYTES` after the header where the file has them.
 */
export function mpegSeconds(bytes: Uint8Array, at: number, header: FrameHeader, size: number | undefined, audioStart: number): number | undefined {
  const xing = header.xingOffset === undefined ? undefined : at + header.xingOffset
  if (xing !== undefined && xing + 12 <= bytes.length && ['Xing', 'Info'].includes(ascii(bytes, xing)) && (u32be(bytes, xing + 4) & 1) === 1) {
    return (u32be(bytes, xing + 8) * header.samplesPerFrame) / header.sampleRate
  }
  const vbri = at + 4 + 32
  if (vbri + 18 <= bytes.length && ascii(bytes, vbri) === 'VBRI') return (u32be(bytes, vbri + 14) * header.samplesPerFrame) / header.sampleRate
  return size === undefined ? undefined : ((size - audioStart) * 8) / header.bitrate
}
