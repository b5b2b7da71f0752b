/**
 * Runs each contender once to warm up, then `rounds` rounds of all of them
 * in turn (so drift of a shared machine hits all alike). Returns each one's
 * results in round order.
 */
export async function interleave(contenders, rounds) {
  for (const run of Object.values(contenders)) await run()
  const results = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]))
  for (let i = 0; i < rounds; i++) for (const [name, run] of Object.entries(contenders)) results[name].push(await run())
  return results
}

export const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]

/** Per-round ratios of `a` to `b` (same rounds): median, min and max. */
export function ratios(a, b) {
  const r = a.map((x, i) => x / b[i])
  return { median: median(r), min: Math.min(...r), max: Math.max(...r) }
}

/** Times one run of `fn` and returns `count / seconds`. */
export async function rate(count, fn) {
  const started = performance.now()
  await fn()
  return (count * 1000) / (performance.now() - started)
}

/** Runs `total` calls of `call` with `concurrency` in flight at a time. */
export async function pool(total, concurrency, call) {
  let next = 0
  const worker = async () => {
    while (next < total) {
      next++
      await call()
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

export const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2))
export const x = (n) => `${n.toFixed(2)}×`
/** `0.91× (0.88–0.93)`: a ratio's median with its min–max over the rounds. */
export const span = (r) => `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`
