/** A token bucket: `take` says whether a request may pass, or how long until one may. */
export interface RateBucket {
  /** Takes one token at time `nowMs`; returns 0 when it passed, otherwise the ms until a token is back. */
  take(nowMs: number): number
}

/**
 * A bucket holding `limit` tokens, refilled continuously at `limit` per
 * second: a burst of `limit` passes, then one request per `1000 / limit` ms.
 * Time is passed in so the rule can be tested without a clock; a step
 * back in time is read as no time passing, and time counts on from there.
 *
 * @example
 * ```ts
 * const bucket = createRateBucket(2, 0)
 * ;[bucket.take(0), bucket.take(0), bucket.take(0)] // [0, 0, 500]
 * bucket.take(500) // 0
 * ```
 */
export function createRateBucket(limit: number, startMs: number): RateBucket {
  let tokens = limit
  let last = startMs
  return {
    take(nowMs) {
      // A clock read earlier than the last (the wall clock set back) refills nothing and takes nothing away,
      // and time counts on from there: an hour set back is not an hour without a token.
      tokens = Math.min(limit, tokens + (Math.max(0, nowMs - last) * limit) / 1000)
      last = nowMs
      if (tokens >= 1) {
        tokens -= 1
        return 0
      }
      return Math.ceil(((1 - tokens) * 1000) / limit)
    },
  }
}
