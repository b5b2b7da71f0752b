// Readers of the fixed-size fields of audio headers. Callers have checked
// that the bytes are there (KnownBytes.get returned them).

/**
 * `length` bytes at `at` read as Latin-1 text (chunk ids, tag names).
 *
 * @example
 * ```ts
 * ascii(new Uint8Array([0x52, 0x49, 0x46, 0x46]), 0, 4) // 'RIFF'
 * ```
 */
export function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length))
}

/**
 * A 32-bit unsigned little-endian number at `at` (WAV's byte order).
 *
 * @example
 * ```ts
 * u32le(new Uint8Array([0x80, 0x3e, 0, 0]), 0) // 16000
 * ```
 */
export function u32le(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

/**
 * A 32-bit unsigned big-endian number at `at` (the byte order of MPEG tags).
 *
 * @example
 * ```ts
 * u32be(new Uint8Array([0, 0, 0x01, 0x00]), 0) // 256
 * ```
 */
export function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
}
