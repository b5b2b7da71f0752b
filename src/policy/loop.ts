import { Observable, Subscription, type Observer, type SchedulerAction, type SchedulerLike, type Unsubscribable } from 'rxjs'

/** What {@link loop$} runs: attempts, what to make of their values, and when to try again. */
export interface LoopPlan<T, R> {
  /** Starts attempt number `n` (from 1), after `failures` failures in a row: one read, one request, or one stream. */
  attempt(n: number, failures: number): Observable<T>
  /**
   * Takes one value of an attempt: passes what the subscriber should see to
   * `out.next`, and says what the value was: `'done'` (the loop completes),
   * `'more'` (progress: the count of failures in a row starts again), or
   * `'old'` (nothing new, e.g. an event a resumed stream repeats: no progress).
   * Throwing fails the attempt with that error, which `retry` judges like
   * any other failure.
   */
  take(value: T, out: Pick<Observer<R>, 'next'>): 'done' | 'more' | 'old'
  /** After `answered` attempts completed without ending the loop: the wait before the next, or `undefined` to complete. */
  again?(answered: number): number | undefined
  /** After failure number `failures` in a row: the wait before trying again, or `undefined` to end with the error. */
  retry(error: unknown, failures: number): number | undefined
  /** The error the loop ends with, made from the failure (e.g. one that names the task). */
  fail?(error: unknown): unknown
  /** Time on the scheduler's clock past which no wait reaches: waits are cut to it, and then the loop ends with `overdue`. */
  readonly deadlineAt?: number | undefined
  /** The error at the deadline; `lastFailure` is the failure being retried, if any. */
  overdue?(lastFailure: unknown): unknown
  /** Wait before the first attempt. Default 0 (it starts at subscription). */
  readonly firstDelay?: number
  readonly scheduler: SchedulerLike
}

/**
 * The one poll-with-retry engine: runs attempts one at a time, waiting
 * between them, until the plan says it is done. `makePlan` is called at
 * each subscription, so a plan may keep state of its own (the last status
 * seen, the last sequence number delivered). It serves single requests
 * (retried on failures), polling (task follows, background responses) and
 * resumed streams alike: only the plan differs.
 *
 * At any moment it holds one timer or one attempt in flight, never both:
 * thousands of loops may wait at once, each holding one small object and
 * one timer. Unsubscribing clears the timer or unsubscribes the attempt
 * (which aborts its request). A deadline is not a timer of its own: each
 * wait is cut to the time left.
 *
 * @example
 * ```ts
 * loop$(() => ({
 *   attempt: () => read$(),
 *   take: (status, out) => (out.next(status), status === 'done' ? 'done' : 'more'),
 *   again: () => 1_000,
 *   retry: (error, failures) => (failures <= 3 ? 500 : undefined),
 *   scheduler: asyncScheduler,
 * }))
 * // Output (a read a second): 'waiting', 'waiting', 'done'
 * ```
 */
export function loop$<T, R>(makePlan: () => LoopPlan<T, R>): Observable<R> {
  return new Observable<R>((subscriber) => new Run(makePlan(), subscriber).start())
}

/** Where a loop's values go: a Subscriber, or anything that behaves like one. */
export interface Sink<R> extends Observer<R> {
  /** True once the sink takes no more values. */
  readonly closed: boolean
}

/**
 * Runs a plan into a sink without an Observable around it, for callers that
 * fan values out themselves (one follow shared by many subscribers).
 * Returns what stops it.
 */
export function runLoop<T, R>(plan: LoopPlan<T, R>, sink: Sink<R>): Unsubscribable {
  return new Run(plan, sink).start()
}

/**
 * One subscription's loop. Its timers run a shared function with the run as
 * state, so a waiting loop holds no closure; unsubscribing it (it is the
 * subscription's teardown) clears the timer or ends the attempt in flight.
 */
class Run<T, R> implements Unsubscribable {
  private attempts = 0
  private answered = 0
  private failures = 0
  private lastFailure: unknown
  /** The timer or the attempt in flight: never both. */
  private pending: Subscription | undefined

  constructor(
    private readonly plan: LoopPlan<T, R>,
    private readonly subscriber: Sink<R>,
  ) {}

  start(): this {
    if (this.plan.firstDelay) this.later(this.plan.firstDelay)
    else this.run()
    return this
  }

  unsubscribe(): void {
    this.pending?.unsubscribe()
  }

  run(): void {
    const attempt = new Attempt<T, R>(this)
    const subscription = this.plan.attempt(++this.attempts, this.failures).subscribe(attempt)
    // A synchronous attempt has already decided what comes next.
    if (attempt.live) this.pending = subscription
    else subscription.unsubscribe()
  }

  /** A value of the live attempt; false when the attempt is over (it failed in `take`, or ended the loop). */
  take(value: T): boolean {
    let verdict: 'done' | 'more' | 'old'
    try {
      verdict = this.plan.take(value, this.subscriber)
    } catch (error) {
      this.failed(error)
      return false
    }
    // Only a value the plan took as new is progress: one it refused is a failure in a row.
    if (verdict !== 'old') {
      this.failures = 0
      this.lastFailure = undefined
    }
    if (verdict === 'done' || this.subscriber.closed) {
      this.subscriber.complete()
      return false
    }
    return true
  }

  answer(): void {
    if (this.subscriber.closed) return
    const ms = this.plan.again?.(++this.answered)
    if (ms === undefined) this.subscriber.complete()
    else this.later(ms)
  }

  failed(error: unknown): void {
    const ms = this.plan.retry(error, this.failures + 1)
    if (ms === undefined) return this.end(error)
    this.failures++
    this.lastFailure = error
    this.later(ms)
  }

  private later(ms: number): void {
    const { deadlineAt, scheduler } = this.plan
    if (deadlineAt !== undefined) {
      const left = deadlineAt - scheduler.now()
      if (left <= 0) return this.end(this.plan.overdue ? this.plan.overdue(this.lastFailure) : this.lastFailure)
      ms = Math.min(ms, left)
    }
    this.pending = scheduler.schedule(fire, Math.max(0, ms), this as Run<unknown, unknown>)
  }

  private end(error: unknown): void {
    this.subscriber.error(this.plan.fail ? this.plan.fail(error) : error)
  }
}

function fire(this: SchedulerAction<Run<unknown, unknown>>, run?: Run<unknown, unknown>): void {
  run!.run()
}

/**
 * The observer of one attempt. Once the attempt has failed (in `take` too)
 * or ended the loop, whatever else it sends is ignored. It is a
 * Subscription as well, which RxJS takes as the subscriber itself.
 */
class Attempt<T, R> extends Subscription implements Observer<T> {
  live = true

  constructor(private readonly loop: Run<T, R>) {
    super()
  }

  next(value: T): void {
    if (!this.live) return
    if (!this.loop.take(value)) this.stop()
  }

  error(error: unknown): void {
    if (!this.live) return
    this.stop()
    this.loop.failed(error)
  }

  complete(): void {
    if (!this.live) return
    this.stop()
    this.loop.answer()
  }

  private stop(): void {
    this.live = false
    this.unsubscribe()
  }
}
