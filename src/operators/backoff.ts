import { asyncScheduler, retry, throwError, timer, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs'

/** How failed calls are retried. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  readonly count?: number
  /** Ceiling of the first retry's delay; it doubles per retry. Default 500 ms. */
  readonly baseDelayMs?: number
  /** Largest ceiling of a delay. Default 8,000 ms. */
  readonly maxDelayMs?: number
  /**
   * Longest `Retry-After` that is waited out. A longer one ends the retries
   * and the error (with its `retryAfterMs`) reaches the subscriber. Default 60,000 ms.
   */
  readonly maxRetryAfterMs?: number
}

/** Options of the {@link backoff} operator. */
export interface BackoffOptions extends RetryOptions {
  /** Whether an error may be retried; by default every error is. */
  readonly shouldRetry?: (error: unknown) => boolean
  readonly scheduler?: SchedulerLike
  /** Source of jitter in [0, 1); injectable for tests. */
  readonly random?: () => number
}

/** The longest delay a timer can hold; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1

export const retryDefaults = { count: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 } as const

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
  { baseDelayMs = retryDefaults.baseDelayMs, maxDelayMs = retryDefaults.maxDelayMs }: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt - 1, 52), MAX_TIMER_MS)
  return Math.floor(random() * ceiling)
}

/**
 * Resubscribes to the source after an error that `shouldRetry` accepts, at
 * most `count` times, waiting {@link retryWait}: the error's `retryAfterMs`
 * (the server's `Retry-After`) when it has one, else {@link retryDelay}. A
 * `Retry-After` beyond `maxRetryAfterMs` is not waited out: the error goes
 * through at once, so a huge or garbage header never becomes a busy loop or
 * an overflowing timer.
 *
 * Errors that are not retried, and the last one, reach the subscriber as
 * they are. Unsubscribing while waiting clears the timer.
 *
 * @example
 * ```ts
 * defer(() => read$()).pipe(backoff({ count: 3, shouldRetry: (e) => e instanceof HttpError && e.kind === 'server' }))
 * ```
 */
export function backoff<T>(options: BackoffOptions = {}): MonoTypeOperatorFunction<T> {
  const { count = retryDefaults.count, shouldRetry = () => true, scheduler = asyncScheduler, random = Math.random } = options
  return retry({
    count,
    delay: (error: unknown, attempt: number) => {
      const ms = shouldRetry(error) ? retryWait(error, attempt, options, random) : undefined
      return ms === undefined ? throwError(() => error) : timer(ms, scheduler)
    },
  })
}

/**
 * How long to wait before retry number `attempt` after `error`: the error's
 * `retryAfterMs` (the server's `Retry-After`) when it has one, else
 * {@link retryDelay}. `undefined` when the server asks for more than
 * `maxRetryAfterMs`, or more than a timer can hold (a longer delay would fire
 * at once): such an error is not to be retried.
 */
export function retryWait(error: unknown, attempt: number, options: RetryOptions, random: () => number = Math.random): number | undefined {
  const after = retryAfterOf(error)
  const limit = Math.min(options.maxRetryAfterMs ?? retryDefaults.maxRetryAfterMs, MAX_TIMER_MS)
  if (after !== undefined) return after <= limit ? after : undefined
  return retryDelay(attempt, options, random)
}

function retryAfterOf(error: unknown): number | undefined {
  const value = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs
  return typeof value === 'number' ? value : undefined
}

/** How often something is polled. */
export interface PollDelayOptions {
  /** Wait before the first poll. */
  readonly initialDelayMs?: number
  /** Growth of the wait per poll. */
  readonly factor?: number
  /** Longest wait between polls. */
  readonly maxDelayMs?: number
  /** Share of each wait taken off at random, in [0, 1): spreads pollers apart without ever waiting longer than `maxDelayMs`. */
  readonly jitter?: number
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
