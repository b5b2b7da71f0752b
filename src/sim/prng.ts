/**
 * mulberry32: a tiny seeded generator of numbers in [0, 1). Chaos uses it so
 * that the same seed and the same order of requests give the same faults.
 *
 * @example
 * ```ts
 * const next = mulberry32(1)
 * next() // 0.6270739405881613, every time
 * ```
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
