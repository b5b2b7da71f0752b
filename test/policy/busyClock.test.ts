import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { HttpError } from '../../src/errors/HttpError.js'
import { Budget } from '../../src/policy/budget.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import type { Pass, RequestSpec } from '../../src/transport/types.js'
import { settle } from '../helpers/clock.js'

// On a busy machine the clock moves between any two reads of it, and a
// timer may fire a little before the time it was set for as `Date.now()`
// reads it (Node counts a timer from the event loop's cached time, which
// lags during a long turn). A budget that asked "may the first waiter go?"
// and then "when?" at two different milliseconds could find the answer to
// the second already past, set no timer, and leave every waiter queued for
// ever: a maxRequestsPerSecond client stalled under load.

/** Virtual time that moves 1 ms each time it is read; timers fire 2 ms early, when `run` says. */
class BusyClock implements SchedulerLike {
  private time = 0
  private timers: { due: number; live: boolean; run: () => void }[] = []

  now(): number {
    return this.time++
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const timer = { due: this.time + Math.max(0, delay), live: true, run: () => work.call(action, state) }
    const action = Object.assign(new Subscription(() => (timer.live = false)), { schedule: () => action }) as unknown as SchedulerAction<T>
    this.timers.push(timer)
    return action
  }

  /** Fires due timers in order, with I/O between, until none is set (at most `limit` of them). */
  async run(limit = 1_000): Promise<void> {
    await settle()
    for (let fired = 0; fired < limit; fired++) {
      const next = this.timers.filter((t) => t.live).sort((a, b) => a.due - b.due)[0]
      if (!next) return
      next.live = false
      this.time = Math.max(this.time, next.due - 2)
      next.run()
      await settle()
    }
  }
}

const SPEC: RequestSpec = { method: 'POST', path: '/p' }

/**
 * Enters `count` requests at once and runs the clock. A pass given is held
 * (as a request in flight is) unless `end` says to end it at once, with the
 * error it returns, so only the budget's own timer can let the rest go.
 */
async function admitted(budget: Budget, clock: BusyClock, count: number, end?: (n: number) => { error: unknown } | undefined): Promise<number> {
  let given = 0
  for (let n = 0; n < count; n++) {
    void Promise.resolve(budget.enter(SPEC, new AbortSwitch())).then((pass: Pass) => {
      given++
      const ending = end?.(n)
      if (ending) pass.done(ending.error)
    })
  }
  await clock.run()
  return given
}

describe('Budget on a clock that moves between reads', () => {
  it.each([1_000, 500, 333, 20])('maxRequestsPerSecond %i: every waiter goes, none is left queued without a timer', async (rate) => {
    const clock = new BusyClock()
    const budget = new Budget({ maxConcurrency: Number.POSITIVE_INFINITY, adaptive: true, maxPauseMs: 60_000, scheduler: clock, maxRequestsPerSecond: rate })
    expect(await admitted(budget, clock, 40)).toBe(40)
  })

  it('after a 429 pause: every waiter goes once it is over', async () => {
    const clock = new BusyClock()
    const budget = new Budget({ maxConcurrency: Number.POSITIVE_INFINITY, adaptive: true, maxPauseMs: 60_000, scheduler: clock })
    const limited = new HttpError({ method: 'POST', path: '/p', status: 429, body: '', retryAfterMs: 2 })
    expect(await admitted(budget, clock, 40, (n) => (n === 0 ? { error: limited } : undefined))).toBe(40)
  })
})
