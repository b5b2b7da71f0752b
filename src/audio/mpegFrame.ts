/** What a 4-byte MPEG audio frame header says. */
export interface FrameHeader {
  /** MPEG-1, MPEG-2 or MPEG-2.5. */
  readonly version: 1 | 2 | 2.5
  readonly layer: 1 | 2 | 3
  /** Bits per second; 0 for the free format, whose bitrate no header gives. */
  readonly bitrate: number
  readonly sampleRate: number
  readonly samplesPerFrame: number
  /** Layer III: bytes of side information after the header, where a Xing/Info tag starts. 0 for Layers I and II. */
  readonly sideInfoBytes: number
}

// kbit/s by bitrate index 1 to 14 (0 is the free format, 15 is invalid).
const KBPS: Record<string, readonly number[]> = {
  '1/1': [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1/2': [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1/3': [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2/1': [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2/2': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
// Hz by sample-rate index 0 to 2 (3 is reserved); MPEG-2 halves MPEG-1's, MPEG-2.5 quarters them.
const MPEG1_RATES = [44_100, 48_000, 32_000]

/**
 * Whether the bytes start with an MPEG audio frame sync (eleven 1 bits).
 *
 * @example
 * ```ts
 * isFrameSync(new Uint8Array([0xff, 0xfb, 0x90, 0x64])) // true
 * isFrameSync(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])) // false: a JPEG
 * ```
 */
export function isFrameSync(bytes: Uint8Array): boolean {
  return bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0
}

/**
 * Reads the frame header in the first 4 bytes, or undefined when they are
 * not one: no sync, or a reserved version, layer, sample rate or the
 * invalid bitrate index. These checks are what tell a real MP3 from bytes
 * that merely start with 0xFF.
 *
 * @example
 * ```ts
 * readFrameHeader(new Uint8Array([0xff, 0xfb, 0x90, 0x64]))
 * // { version: 1, layer: 3, bitrate: 128000, sampleRate: 44100, samplesPerFrame: 1152, sideInfoBytes: 32 }
 * ```
 */
export function readFrameHeader(bytes: Uint8Array): FrameHeader | undefined {
  if (bytes.length < 4 || !isFrameSync(bytes)) return undefined
  const versionBits = (bytes[1]! >> 3) & 3 // 0 MPEG-2.5, 1 reserved, 2 MPEG-2, 3 MPEG-1
  const layerBits = (bytes[1]! >> 1) & 3 // 0 reserved, 1 Layer III, 2 Layer II, 3 Layer I
  const bitrateIndex = bytes[2]! >> 4
  const rateIndex = (bytes[2]! >> 2) & 3
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5
  const layer = (4 - layerBits) as 1 | 2 | 3
  const table = KBPS[`${version === 1 ? 1 : 2}/${version === 1 ? layer : Math.min(layer, 2)}`]!
  const mono = bytes[3]! >> 6 === 3
  return {
    version,
    layer,
    bitrate: bitrateIndex === 0 ? 0 : table[bitrateIndex - 1]! * 1000,
    sampleRate: MPEG1_RATES[rateIndex]! / (version === 1 ? 1 : version === 2 ? 2 : 4),
    samplesPerFrame: layer === 1 ? 384 : layer === 2 || version === 1 ? 1152 : 576,
    sideInfoBytes: layer !== 3 ? 0 : version === 1 ? (mono ? 17 : 32) : mono ? 9 : 17,
  }
}
