import { DEFAULTS } from '../policy/defaults.js'
import { retryWait } from '../policy/delays.js'
import { isTransient } from '../policy/retryable.js'

/**
 * Whether a download tries again after `failure`, and how long it waits
 * first: `undefined` to give up, else a delay in ms. `retry` is the number of
 * the request about to be sent after the first (1-based); past `retries` the
 * download gives up, whatever failed. A failure that a new request cannot
 * mend (a 4xx, a refused address, a body longer than announced) gives up at
 * once. The first retry goes at once, as a dropped connection rarely means a
 * busy server, unless the server asked for a wait with `Retry-After`; later
 * ones wait growing delays with jitter (or `Retry-After`).
 *
 * @example
 * ```ts
 * transferRetryDelay(new ConnectionError('GET', '/v.mp4', 'reset', true), 1, 3)             // 0
 * transferRetryDelay(new ConnectionError('GET', '/v.mp4', 'reset', true), 2, 3, () => 0.5)  // 250
 * transferRetryDelay(new ConnectionError('GET', '/v.mp4', 'reset', true), 4, 3)             // undefined
 * ```
 */
export function transferRetryDelay(failure: unknown, retry: number, retries: number, random: () => number = Math.random): number | undefined {
  if (retry > retries || !isTransient(failure)) return undefined
  if (retry === 1 && !hasRetryAfter(failure)) return 0
  return retryWait(failure, retry - 1, DEFAULTS.retry, random)
}

function hasRetryAfter(error: unknown): boolean {
  return typeof (error as { retryAfterMs?: unknown } | null)?.retryAfterMs === 'number'
}
