import { asyncScheduler, retry, throwError, timer, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs'
import { DEFAULTS, type RetryOptions } from '../policy/defaults.js'
import { retryWait } from '../policy/delays.js'

/** Options of the {@link backoff} operator. */
export interface BackoffOptions extends RetryOptions {
  /** Whether an error may be retried. @defaultValue `() => true` (every error is) */
  readonly shouldRetry?: (error: unknown) => boolean
  /** Scheduler of the delays; a virtual one in tests. @defaultValue RxJS's `asyncScheduler` */
  readonly scheduler?: SchedulerLike
  /** Source of jitter in [0, 1); injectable for tests. @defaultValue `Math.random` */
  readonly random?: () => number
}

/**
 * Resubscribes to the source after an error that `shouldRetry` accepts, at
 * most `count` times, waiting the error's `retryAfterMs` (the server's
 * `Retry-After`) when it has one, else `retryDelay` (exponential, full
 * jitter). The same delays rxgate's own calls use, for your own Observables.
 * A `Retry-After` beyond `maxRetryAfterMs` is not waited out: the error goes
 * through at once, so a huge or garbage header never becomes a busy loop or
 * an overflowing timer.
 *
 * Errors that are not retried, and the last one, reach the subscriber as
 * they are. Unsubscribing while waiting clears the timer.
 *
 * @example
 * ```ts
 * defer(() => read$()).pipe(backoff({ count: 3, shouldRetry: (e) => isHttpError(e) && e.kind === 'server' }))
 * ```
 */
export function backoff<T>(options: BackoffOptions = {}): MonoTypeOperatorFunction<T> {
  const { count = DEFAULTS.retry.count, shouldRetry = () => true, scheduler = asyncScheduler, random = Math.random } = options
  return retry({
    count,
    delay: (error: unknown, attempt: number) => {
      const ms = shouldRetry(error) ? retryWait(error, attempt, options, random) : undefined
      return ms === undefined ? throwError(() => error) : timer(ms, scheduler)
    },
  })
}
