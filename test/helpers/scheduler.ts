import { VirtualAction, VirtualTimeScheduler } from 'rxjs'

/**
 * A virtual clock for code that also does real I/O: time moves only when
 * the test calls `advanceBy`, and `pending` counts the timers still scheduled
 * (an unsubscribed timer leaves the list at once).
 */
export class ManualScheduler extends VirtualTimeScheduler {
  constructor() {
    super(VirtualAction, Number.POSITIVE_INFINITY)
  }

  /** Runs every timer due within `ms` from now, in order, and moves the clock there. */
  advanceBy(ms: number): void {
    const target = this.frame + ms
    this.maxFrames = target
    this.flush()
    this.frame = target
    this.maxFrames = Number.POSITIVE_INFINITY
  }

  /** Timers still scheduled. */
  get pending(): number {
    return this.actions.length
  }

  /** Delays (from now) of the timers still scheduled. */
  get pendingDelays(): number[] {
    return this.actions.map((a) => (a as unknown as { delay: number }).delay - this.frame)
  }
}
