import { DEFAULTS, type PollDelayOptions, type RetryOptions } from './defaults.js'

/** The longest delay a timer can hold (2^31-1 ms, about 24.8 days); a longer one would fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * The delay before retry number `attempt` (1-based): exponential growth with
 * full jitter, `random() * min(maxDelayMs, baseDelayMs * 2^(attempt-1))`,
 * never more than a timer can hold (2^31-1 ms).
 *
 * @example
 * ```ts
 * retryDelay(3, { baseDelayMs: 500, maxDelayMs: 8000 }, () => 0.5) // 1000
 * ```
 */
export function retryDelay(
  attempt: number,
  { baseDelayMs = DEFAULTS.retry.baseDelayMs, maxDelayMs = DEFAULTS.retry.maxDelayMs }: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt - 1, 52), MAX_TIMER_MS)
  return Math.floor(random() * ceiling)
}

/**
 * How long to wait before retry number `attempt` after `error`: the error's
 * `retryAfterMs` (the server's `Retry-After`) when it has one, else
 * {@link retryDelay}. `undefined` when the server asks for more than
 * `maxRetryAfterMs`, or more than a timer can hold (a longer delay would fire
 * at once): such an error is not to be retried.
 */
export function retryWait(error: unknown, attempt: number, options: RetryOptions, random: () => number = Math.random): number | undefined {
  const value = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs
  const limit = Math.min(options.maxRetryAfterMs ?? DEFAULTS.retry.maxRetryAfterMs, MAX_TIMER_MS)
  if (typeof value === 'number') return value <= limit ? value : undefined
  return retryDelay(attempt, options, random)
}

/**
 * The wait before poll number `n` (1-based):
 * `min(maxDelayMs, initialDelayMs * factor^(n-1)) * (1 - jitter * random())`,
 * never more than a timer can hold (2^31-1 ms).
 *
 * @example
 * ```ts
 * pollDelay(1, { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0 }) // 10000
 * pollDelay(4, { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0 }) // 20000
 * ```
 */
export function pollDelay(n: number, options: Required<PollDelayOptions>, random: () => number = Math.random): number {
  const { initialDelayMs, factor, maxDelayMs, jitter } = options
  const nominal = Math.min(maxDelayMs, initialDelayMs * factor ** Math.min(n - 1, 64), MAX_TIMER_MS)
  return Math.round(nominal * (1 - jitter * random()))
}
