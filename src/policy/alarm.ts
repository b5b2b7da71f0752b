import type { SchedulerLike, Subscription } from 'rxjs'
import { MAX_TIMER_MS } from './delays.js'

/**
 * One timer at most, on a scheduler: set for a time (moved when the time
 * moves, kept when it does not), cleared when nothing is to wait for. The
 * budget's waiters share it, so a thousand queued requests hold one timer.
 *
 * @example
 * ```ts
 * const alarm = new Alarm(scheduler, () => pump())
 * alarm.set(scheduler.now() + 1_000) // pump() in 1 s
 * alarm.set(undefined) // or not at all
 * ```
 */
export class Alarm {
  private timer: Subscription | undefined
  private at = 0

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly ring: () => void,
  ) {}

  /**
   * Rings at `at`; a time already past (the clock moved on since the caller
   * read it) rings on the scheduler's next turn, never in this call.
   * `undefined`: never, and any timer set is cleared.
   */
  set(at: number | undefined): void {
    if (this.timer && at !== this.at) {
      this.timer.unsubscribe()
      this.timer = undefined
    }
    if (at === undefined || this.timer) return
    this.at = at
    // A scheduler whose unsubscribe does not cancel may still run an old timer: it must not forget the current one.
    const timer = this.scheduler.schedule(() => {
      if (this.timer === timer) this.timer = undefined
      this.ring()
    }, Math.min(Math.max(0, at - this.scheduler.now()), MAX_TIMER_MS))
    this.timer = timer
  }
}
