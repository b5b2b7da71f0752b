// SHA-256 (FIPS 180-4) in plain TypeScript: the same digest in Node and in a
// browser, where `node:crypto` does not exist and Web Crypto only digests a
// whole buffer, asynchronously. Shared by the client (downloads, keys) and
// the simulator (its seeded words), hence here, beside the interface.

/** An incremental SHA-256: bytes in, in any pieces; the hex digest out. */
export interface Sha256 {
  update(bytes: Uint8Array): void
  /** The digest of every byte so far, as 64 lower-case hex digits. Call it once, at the end: it pads the state (as `node:crypto`'s `digest` ends its hash). */
  hex(): string
}

const K = /* @__PURE__ */ Uint32Array.from(
  '428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2'
    .split(' ')
    .map((word) => parseInt(word, 16)),
)

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n))

/**
 * The plain TypeScript hasher, fed in any pieces, block by block.
 *
 * @example
 * ```ts
 * const hash = plainSha256()
 * hash.update(new TextEncoder().encode('abc'))
 * hash.hex() // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function plainSha256(): Sha256 {
  const h = Uint32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
  const w = new Uint32Array(64)
  // Bytes waiting for a whole 64-byte block.
  const block = new Uint8Array(64)
  const view = new DataView(block.buffer)
  let filled = 0
  let length = 0
  const compress = () => {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(i * 4)
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3)
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10)
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number]
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      hh = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    const sums = [a, b, c, d, e, f, g, hh]
    for (let i = 0; i < 8; i++) h[i] = h[i]! + sums[i]!
  }
  const update = (bytes: Uint8Array) => {
    length += bytes.byteLength
    for (let at = 0; at < bytes.byteLength; ) {
      const take = Math.min(64 - filled, bytes.byteLength - at)
      block.set(bytes.subarray(at, at + take), filled)
      filled += take
      at += take
      if (filled === 64) {
        compress()
        filled = 0
      }
    }
  }
  return {
    update,
    hex: () => {
      // The padding: a 1 bit, zeros, and the length in bits as 64 bits, ending a block.
      const bits = length * 8
      const tail = new Uint8Array(((filled < 56 ? 56 : 120) - filled) + 8)
      tail[0] = 0x80
      const end = new DataView(tail.buffer)
      end.setUint32(tail.length - 8, Math.floor(bits / 0x100000000))
      end.setUint32(tail.length - 4, bits >>> 0)
      update(tail)
      return Array.from(h, (x) => x.toString(16).padStart(8, '0')).join('')
    },
  }
}
