import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs'

interface Timer {
  due: number
  order: number
  run: () => void
  live: boolean
}

/**
 * A virtual clock for code that also does real (or promised) I/O: time moves
 * only when the test calls `advance`, and `pending` counts the timers still
 * set. It implements RxJS's public `SchedulerLike` and nothing else, so it
 * reads no RxJS internals.
 */
export class VirtualClock implements SchedulerLike {
  private time = 0
  private order = 0
  private timers: Timer[] = []

  now(): number {
    return this.time
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    let current: Timer | undefined
    const subscription = new Subscription(() => {
      if (current) current.live = false
    })
    const action = Object.assign(subscription, {
      schedule: (next?: T, again = 0): Subscription => {
        arm(next, again)
        return subscription
      },
    }) as unknown as SchedulerAction<T>
    const arm = (value: T | undefined, ms: number) => {
      if (current) current.live = false
      current = { due: this.time + Math.max(0, ms), order: this.order++, live: true, run: () => work.call(action, value) }
      this.timers.push(current)
    }
    arm(state, delay)
    return subscription
  }

  /** Runs every timer due within `ms` from now, in order of due time, and moves the clock there. */
  advance(ms: number): void {
    const target = this.time + ms
    for (;;) {
      const next = this.live().sort((a, b) => a.due - b.due || a.order - b.order)[0]
      if (!next || next.due > target) break
      this.time = next.due
      next.live = false
      next.run()
    }
    this.time = target
  }

  /** Timers still set. */
  get pending(): number {
    return this.live().length
  }

  /** Time until the next timer, or undefined when none is set. */
  get nextIn(): number | undefined {
    const due = this.live().map((t) => t.due)
    return due.length ? Math.min(...due) - this.time : undefined
  }

  private live(): Timer[] {
    this.timers = this.timers.filter((t) => t.live)
    return this.timers
  }
}

/** Lets promise callbacks (a transport's replies) run: a few turns of the microtask queue. */
export async function flush(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve()
}
