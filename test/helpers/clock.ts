import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs'

interface Timer {
  due: number
  order: number
  run: () => void
  live: boolean
}

/**
 * A virtual clock for code that also does promised I/O (a fake transport, a
 * loopback socket): time moves only when the test says so, and `pending`
 * counts the timers still set. It implements RxJS's public `SchedulerLike`
 * and nothing else, so it reads no RxJS internals.
 */
export class VirtualClock implements SchedulerLike {
  private time = 0
  private order = 0
  private timers: Timer[] = []

  /**
   * Most timers one `advance`, `run` or `runAll` may fire: past it the call
   * throws, so a loop that retries forever fails its test instead of hanging it.
   */
  constructor(private readonly maxTimers = 5_000) {}

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

  /** Runs every timer due within `ms` from now, in order of due time, and moves the clock there. Synchronous: no I/O runs in between. */
  advance(ms: number): void {
    const target = this.time + ms
    this.count(true)
    for (;;) {
      const next = this.next()
      if (!next || next.due > target) break
      this.fire(next)
    }
    this.time = target
  }

  /**
   * Moves the clock `ms` forward like {@link advance}, but lets pending I/O
   * (promise callbacks, socket events) run before and after each timer, so a
   * timer that starts a request sees its reply before the next timer fires.
   */
  async run(ms: number): Promise<void> {
    const target = this.time + ms
    this.count(true)
    await settle()
    for (;;) {
      const next = this.next()
      if (!next || next.due > target) break
      this.fire(next)
      await settle()
    }
    this.time = target
    await settle()
  }

  /** Like {@link run}, until no timer is left (at most `limitMs` of virtual time). */
  async runAll(limitMs = 24 * 3_600_000): Promise<void> {
    const end = this.time + limitMs
    this.count(true)
    await settle()
    for (;;) {
      const next = this.next()
      if (!next || next.due > end) break
      this.fire(next)
      await settle()
    }
  }

  /**
   * Like {@link run}, until `done()` holds (checked after each timer and the
   * I/O it caused) or no timer is left; at most `limitMs` of virtual time.
   */
  async runUntil(done: () => boolean, limitMs = 24 * 3_600_000): Promise<void> {
    const end = this.time + limitMs
    this.count(true)
    await settle()
    while (!done()) {
      const next = this.next()
      if (!next || next.due > end) break
      this.fire(next)
      await settle()
    }
  }

  /** Timers still set. */
  get pending(): number {
    return this.live().length
  }

  /** Delays from now of the timers still set, soonest first. */
  get pendingDelays(): number[] {
    return this.live()
      .map((t) => t.due - this.time)
      .sort((a, b) => a - b)
  }

  private fired = 0

  private count(reset: boolean): void {
    if (reset) this.fired = 0
    else if (++this.fired > this.maxTimers) throw new Error(`VirtualClock: more than ${this.maxTimers} timers fired in one step: a runaway loop`)
  }

  private fire(timer: Timer): void {
    this.count(false)
    this.time = Math.max(this.time, timer.due)
    timer.live = false
    timer.run()
  }

  private next(): Timer | undefined {
    return this.live().sort((a, b) => a.due - b.due || a.order - b.order)[0]
  }

  private live(): Timer[] {
    this.timers = this.timers.filter((t) => t.live)
    return this.timers
  }
}

/**
 * Lets pending I/O run: every queued promise callback, and the callbacks of
 * I/O that has already completed (a few turns of the event loop). It does not
 * wait for anything that has not happened yet.
 */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}
