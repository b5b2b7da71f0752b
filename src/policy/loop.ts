import { Observable, type SchedulerLike, type Subscription } from 'rxjs'

/** What {@link loop$} runs: attempts, what to make of their values, and when to try again. */
export interface LoopPlan<T, R> {
  /** Starts attempt number `n` (from 1): one read, one request, or one stream. */
  attempt(n: number): Observable<T>
  /**
   * Takes one value of an attempt: passes what the subscriber should see to
   * `emit`, and returns true when the loop is done (it then completes).
   * Throwing ends the loop with that error. A value is progress: it resets
   * the count of failures in a row.
   */
  take(value: T, emit: (value: R) => void): boolean
  /** After `answered` attempts completed without ending the loop: the wait before the next, or `undefined` to complete. */
  again?(answered: number): number | undefined
  /** After failure number `failures` in a row: the wait before trying again, or `undefined` to end with the error. */
  retry(error: unknown, failures: number): number | undefined
  /** The error the loop ends with, made from the failure (e.g. one that names the task). */
  fail?(error: unknown): unknown
  /** Time on the scheduler's clock past which no wait reaches: waits are cut to it, and then the loop ends with `overdue`. */
  readonly deadlineAt?: number
  /** The error at the deadline; `lastFailure` is the failure being retried, if any. */
  overdue?(lastFailure: unknown): unknown
  /** Wait before the first attempt. Default 0 (it starts at subscription). */
  readonly firstDelay?: number
  readonly scheduler: SchedulerLike
}

/**
 * The one poll-with-retry engine: runs attempts one at a time, waiting
 * between them, until the plan says it is done. It serves single requests
 * (retried on failures), polling (task follows, background responses) and
 * resumed streams alike: only the plan differs.
 *
 * At any moment it holds one timer or one attempt in flight, never both:
 * thousands of loops may wait at once. Unsubscribing clears the timer or
 * unsubscribes the attempt (which aborts its request). A deadline is not a
 * timer of its own: each wait is cut to the time left.
 *
 * @example
 * ```ts
 * loop$({
 *   attempt: () => read$(),
 *   take: (status, emit) => (emit(status), status === 'done'),
 *   again: () => 1_000,
 *   retry: (error, failures) => (failures <= 3 ? 500 : undefined),
 *   scheduler: asyncScheduler,
 * })
 * // Output (a read a second): 'waiting', 'waiting', 'done'
 * ```
 */
export function loop$<T, R>(plan: LoopPlan<T, R>): Observable<R> {
  return new Observable<R>((subscriber) => {
    const { scheduler, deadlineAt } = plan
    let attempts = 0
    let answered = 0
    let failures = 0
    let lastFailure: unknown
    // The timer or the attempt in flight: never both.
    let pending: Subscription | undefined
    const emit = (value: R): void => subscriber.next(value)
    const end = (error: unknown): void => subscriber.error(plan.fail ? plan.fail(error) : error)

    const later = (ms: number): void => {
      if (deadlineAt !== undefined) {
        const left = deadlineAt - scheduler.now()
        if (left <= 0) return end(plan.overdue ? plan.overdue(lastFailure) : lastFailure)
        ms = Math.min(ms, left)
      }
      pending = scheduler.schedule(run, Math.max(0, ms))
    }
    const failed = (error: unknown): void => {
      const ms = plan.retry(error, failures + 1)
      if (ms === undefined) return end(error)
      failures++
      lastFailure = error
      later(ms)
    }
    const run = (): void => {
      // Whether this attempt still counts: once it has failed (in `take` too)
      // or ended the loop, whatever else it sends is ignored.
      let live = true
      let inFlight: Subscription | undefined
      inFlight = plan.attempt(++attempts).subscribe({
        next: (value) => {
          if (!live) return
          failures = 0
          lastFailure = undefined
          let done: boolean
          try {
            done = plan.take(value, emit)
          } catch (error) {
            live = false
            inFlight?.unsubscribe()
            return failed(error)
          }
          if (done || subscriber.closed) {
            live = false
            subscriber.complete()
          }
        },
        error: (error: unknown) => {
          if (!live) return
          live = false
          failed(error)
        },
        complete: () => {
          if (!live) return
          live = false
          const ms = plan.again?.(++answered)
          if (ms === undefined) subscriber.complete()
          else later(ms)
        },
      })
      // A synchronous attempt has already decided what comes next.
      if (!live) inFlight.unsubscribe()
      else pending = inFlight
    }

    if (plan.firstDelay) later(plan.firstDelay)
    else run()
    return () => pending?.unsubscribe()
  })
}
