import { Subscription, type SchedulerLike } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { HttpError } from '../../src/errors/HttpError.js'
import { Budget, type BudgetOptions } from '../../src/policy/budget.js'
import { AbortSwitch, type AbortSignalLike } from '../../src/transport/abort.js'
import type { Pass, RequestSpec } from '../../src/transport/types.js'
import { settle, VirtualClock } from '../helpers/clock.js'

const SPEC: RequestSpec = { method: 'GET', path: '/p' }
const rateLimited = (retryAfterMs?: number) => new HttpError({ method: 'GET', path: '/p', status: 429, body: '', retryAfterMs })
const quota = () => new HttpError({ method: 'GET', path: '/p', status: 429, body: '{"error":{"code":"insufficient_quota"}}', retryAfterMs: 5_000 })

function setup(options: Partial<BudgetOptions> = {}) {
  const clock = new VirtualClock()
  const budget = new Budget({ maxConcurrency: Number.POSITIVE_INFINITY, adaptive: true, maxPauseMs: 60_000, scheduler: clock, ...options })
  const admitted: string[] = []
  const passes = new Map<string, Pass>()
  /** Asks to enter as `name`; records when it is admitted. */
  const enter = (name: string, signal: AbortSignalLike = new AbortSwitch()) => {
    const got = budget.enter(SPEC, signal)
    const take = (pass: Pass) => {
      admitted.push(name)
      passes.set(name, pass)
    }
    const waiting = got instanceof Promise ? got.then(take) : (take(got), Promise.resolve())
    waiting.catch(() => {})
    return waiting
  }
  return { clock, budget, admitted, passes, enter }
}

/** With maxConcurrency 8: `inFlight` requests (a0, a1, …) admitted, a0 answered 429, then ten more (b0…b9) asking to enter. */
async function limitedWith(inFlight: number) {
  const s = setup({ maxConcurrency: 8 })
  for (let i = 0; i < inFlight; i++) void s.enter(`a${i}`)
  await settle()
  s.passes.get('a0')!.done(rateLimited(0))
  for (let i = 0; i < 10; i++) void s.enter(`b${i}`)
  await s.clock.run(0)
  return s
}

describe('Budget: maxConcurrency', () => {
  it('admits up to maxConcurrency requests at once; the others wait and are admitted in order of arrival as passes end', async () => {
    const { admitted, passes, enter } = setup({ maxConcurrency: 2 })
    for (const name of ['a', 'b', 'c', 'd', 'e']) void enter(name)
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    passes.get('b')!.done(undefined)
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
    passes.get('a')!.done(new Error('failed'))
    passes.get('c')!.done(undefined)
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('counts a pass once, however often it is ended', async () => {
    const { admitted, passes, enter } = setup({ maxConcurrency: 1 })
    for (const name of ['a', 'b', 'c']) void enter(name)
    await settle()
    passes.get('a')!.done(undefined)
    passes.get('a')!.done(undefined)
    await settle()
    expect(admitted).toEqual(['a', 'b'])
  })

  it.each([
    ['its own abort switch', () => new AbortSwitch()],
    ['a real AbortSignal', () => new AbortController()],
  ])('lets a request whose subscriber left while it waited out of the queue (%s): it is never admitted and does not hold a place', async (_, makeAbort) => {
    const { admitted, passes, enter } = setup({ maxConcurrency: 1 })
    void enter('a')
    const abort = makeAbort()
    const b = enter('b', 'signal' in abort ? abort.signal : abort)
    void enter('c')
    abort.abort()
    await expect(b).rejects.toThrow('aborted while waiting for the budget')
    passes.get('a')!.done(undefined)
    await settle()
    expect(admitted).toEqual(['a', 'c'])
  })

  it('gives a pass at once, without a turn of the event loop, while there is room and nobody waits', () => {
    const { budget } = setup({ maxConcurrency: 1 })
    const first = budget.enter(SPEC, new AbortSwitch())
    expect(first).not.toBeInstanceOf(Promise)
    const second = budget.enter(SPEC, new AbortSwitch())
    expect(second).toBeInstanceOf(Promise)
    ;(second as Promise<Pass>).catch(() => {})
  })

  it('takes out of the queue exactly the waiter whose subscriber left, wherever it stands', async () => {
    const { admitted, passes, enter } = setup({ maxConcurrency: 1 })
    void enter('a')
    void enter('b')
    const signal = new AbortSwitch()
    void enter('c', signal)
    void enter('d')
    signal.abort()
    passes.get('a')!.done(undefined)
    await settle()
    passes.get('b')!.done(undefined)
    await settle()
    expect(admitted).toEqual(['a', 'b', 'd'])
  })

  it('admits everything at once without a limit', async () => {
    const { admitted, enter } = setup()
    for (let i = 0; i < 100; i++) void enter(`r${i}`)
    await settle()
    expect(admitted).toHaveLength(100)
  })
})

describe('Budget: adapting to rate limits', () => {
  it('after a rate-limiting 429, admits nobody until its Retry-After has passed on the clock, with one timer', async () => {
    const { clock, admitted, passes, enter } = setup()
    void enter('a')
    await settle()
    passes.get('a')!.done(rateLimited(2_000))
    void enter('b')
    void enter('c')
    await settle()
    expect(admitted).toEqual(['a'])
    expect(clock.pendingDelays).toEqual([2_000])
    await clock.run(1_999)
    expect(admitted).toEqual(['a'])
    await clock.run(1)
    expect(admitted).toEqual(['a', 'b'])
  })

  it('halves the requests in flight after a 429, then grows back by one per round of successes', async () => {
    const { admitted, passes } = await limitedWith(8)
    // 7 still in flight, and room for floor(8 / 2) = 4: nobody new.
    expect(admitted.filter((n) => n.startsWith('b'))).toEqual([])
    for (let i = 1; i < 8; i++) passes.get(`a${i}`)!.done(undefined)
    await settle()
    // Room grew from 4 by 1/4 per success: four successes make 5; three more (1/5 each) do not make 6.
    expect(admitted.filter((n) => n.startsWith('b'))).toHaveLength(5)
  })

  it('halves what was in flight when the 429 came, not the limit; failures other than 429 neither shrink nor grow the room', async () => {
    // 4 in flight when a0 is limited: room for floor(4 / 2) = 2.
    const { admitted, passes } = await limitedWith(4)
    for (let i = 1; i < 4; i++) passes.get(`a${i}`)!.done(new Error('failed'))
    await settle()
    expect(admitted.filter((n) => n.startsWith('b'))).toEqual(['b0', 'b1'])
  })

  it('backs off 1 s, 2 s, 4 s … after 429s without Retry-After, never longer than maxPauseMs', async () => {
    const { clock, passes, enter } = setup({ maxPauseMs: 3_000 })
    const waits: number[] = []
    for (let i = 0; i < 3; i++) {
      void enter(`a${i}`)
      await clock.runUntil(() => passes.has(`a${i}`))
      passes.get(`a${i}`)!.done(rateLimited())
      void enter(`w${i}`)
      await settle()
      waits.push(clock.pendingDelays[0]!)
      await clock.runUntil(() => passes.has(`w${i}`))
      passes.get(`w${i}`)!.done(rateLimited())
      await clock.run(10_000)
    }
    expect(waits).toEqual([1_000, 3_000, 3_000])
  })

  it('does not pause for a quota 429 (permanent) or any other failure', async () => {
    const { clock, admitted, passes, enter } = setup()
    void enter('a')
    await settle()
    passes.get('a')!.done(quota())
    void enter('b')
    await settle()
    passes.get('b')!.done(new HttpError({ method: 'GET', path: '/p', status: 503, body: '', retryAfterMs: 5_000 }))
    void enter('c')
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
    expect(clock.pending).toBe(0)
  })

  it('does not pause at all when not adaptive', async () => {
    const { clock, admitted, passes, enter } = setup({ adaptive: false })
    void enter('a')
    await settle()
    passes.get('a')!.done(rateLimited(60_000))
    void enter('b')
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    expect(clock.pending).toBe(0)
  })

  it('caps a pause at maxPauseMs', async () => {
    const { clock, passes, enter } = setup({ maxPauseMs: 5_000 })
    void enter('a')
    await settle()
    passes.get('a')!.done(rateLimited(3_600_000))
    void enter('b')
    await settle()
    expect(clock.pendingDelays).toEqual([5_000])
  })
})

describe('Budget: order of arrival across a pause', () => {
  it('a request that arrives as a pause ends, before the timer has let the waiters in, queues behind them', async () => {
    // A clock whose time moves on its own, its timers firing only when the test says: a real timer may fire late.
    let now = 0
    const timers: (() => void)[] = []
    const scheduler: SchedulerLike = {
      now: () => now,
      schedule: (work) => (timers.push(() => (work as () => void)()), new Subscription()),
    }
    const { admitted, passes, enter } = setup({ maxConcurrency: 1, scheduler })
    void enter('a')
    passes.get('a')!.done(rateLimited(1_000))
    void enter('b')
    await settle()
    expect(admitted).toEqual(['a'])
    now = 1_000
    void enter('c')
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    passes.get('b')!.done(undefined)
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
    expect(timers).toHaveLength(1)
  })
})
