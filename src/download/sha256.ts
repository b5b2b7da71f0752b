import { plainSha256, type Sha256 } from '../contract/sha256.js'

export type { Sha256 } from '../contract/sha256.js'

/**
 * A SHA-256 hasher. In Node it is `node:crypto`'s (fast enough for files
 * of hundreds of MB); elsewhere (a browser, where Web Crypto only digests a
 * whole buffer, and asynchronously) it is FIPS 180-4 in plain TypeScript,
 * fed block by block, so a download is hashed as it arrives in both.
 *
 * @example
 * ```ts
 * const hash = createSha256()
 * hash.update(new TextEncoder().encode('ab'))
 * hash.update(new TextEncoder().encode('c'))
 * hash.hex() // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function createSha256(): Sha256 {
  const crypto = (globalThis as { process?: { getBuiltinModule?: NodeJS.Process['getBuiltinModule'] } }).process?.getBuiltinModule?.('node:crypto')
  if (crypto) {
    const hash = crypto.createHash('sha256')
    return { update: (bytes) => void hash.update(bytes), hex: () => hash.digest('hex') }
  }
  return plainSha256()
}
