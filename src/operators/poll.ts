import { defer, repeat, takeWhile, timer, switchMap, type Observable, type SchedulerLike } from 'rxjs'

/** Options of {@link poll}. */
export interface PollOptions<T> {
  /** The wait before poll number `n` (1-based); poll 1 comes after `delay(1)`. */
  readonly delay: (n: number) => number
  /** Whether a value is the last one; polling stops after emitting it. */
  readonly isDone: (value: T) => boolean
  readonly scheduler: SchedulerLike
}

/**
 * Calls `read` again and again, waiting `delay(n)` before each call, and
 * emits every value until one is done. Calls never overlap: the next wait
 * starts when the previous read completes. Errors of `read` end the polling
 * (put retries inside `read`). Unsubscribing aborts the read in flight and
 * clears the timer.
 *
 * @example
 * ```ts
 * poll(() => status$(), { delay: () => 1000, isDone: (s) => s === 'done', scheduler: asyncScheduler })
 * // Output (one value a second): 'waiting', 'waiting', 'done'
 * ```
 */
export function poll<T>(read: () => Observable<T>, { delay, isDone, scheduler }: PollOptions<T>): Observable<T> {
  return timer(delay(1), scheduler).pipe(
    switchMap(() => defer(read).pipe(repeat({ delay: (count) => timer(delay(count + 1), scheduler) }))),
    takeWhile((value) => !isDone(value), true),
  )
}
