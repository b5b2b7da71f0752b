/** What a WAV header says: its length in seconds when the `fmt ` and `data` chunks were both read. */
export interface WavFacts {
  readonly format: 'wav'
  readonly seconds?: number
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
const u32 = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0

/**
 * Reads a WAV header from the first bytes of a file that starts with
 * `RIFF`: checks `WAVE`, then walks the chunks to `fmt ` (byte rate) and
 * `data` (its size); the length is data size / byte rate. Returns
 * `'more'` when the bytes end inside a structure it needs (unless `final`),
 * and `'not-wav'` for a RIFF file of another kind (e.g. AVI).
 */
export function probeWav(bytes: Uint8Array, final: boolean): WavFacts | 'more' | 'not-wav' {
  if (bytes.length < 12) return final ? 'not-wav' : 'more'
  if (ascii(bytes, 8) !== 'WAVE') return 'not-wav'
  let byteRate: number | undefined
  for (let at = 12; ; ) {
    if (at + 8 > bytes.length) return final ? { format: 'wav' } : 'more'
    const id = ascii(bytes, at)
    const size = u32(bytes, at + 4)
    if (id === 'fmt ') {
      if (at + 8 + 12 > bytes.length) return final ? { format: 'wav' } : 'more'
      byteRate = u32(bytes, at + 8 + 8)
    } else if (id === 'data') {
      // A data size of 0 or 0xFFFFFFFF means "unknown" (a stream being written): no length then.
      const known = byteRate !== undefined && byteRate > 0 && size > 0 && size !== 0xffffffff
      return known ? { format: 'wav', seconds: size / byteRate! } : { format: 'wav' }
    }
    at += 8 + size + (size % 2) // chunks are padded to an even size
  }
}
