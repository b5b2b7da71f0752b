import { plainSha256 } from '../contract/sha256.js'

/**
 * The SHA-256 digest of the text's UTF-8 bytes: 32 bytes, the same as
 * `createHash('sha256').update(text).digest()`, in Node and in a browser
 * bundle alike (a component test under rxgate/angular/testing), so the
 * simulator's models pick the same words for the same prompt everywhere.
 *
 * @example
 * ```ts
 * sha256('abc')[0] // 0xba
 * ```
 */
export function sha256(text: string): Uint8Array {
  const hash = plainSha256()
  hash.update(new TextEncoder().encode(text))
  const hex = hash.hex()
  return Uint8Array.from({ length: 32 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16))
}
