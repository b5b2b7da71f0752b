import { defer, Observable, throwError } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { backoff, HttpError, pollDelay, retryDelay } from '../../src/index.js'
import { ManualScheduler } from '../helpers/scheduler.js'

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const boom = new Error('boom')
const rateLimited = (retryAfterMs: number) => new HttpError({ method: 'GET', path: '/x', status: 429, body: '', retryAfterMs })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('retryDelay', () => {
  it('doubles its ceiling per attempt and takes a random share of it (full jitter)', () => {
    const half = () => 0.5
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, { baseDelayMs: 100, maxDelayMs: 10_000 }, half))).toEqual([50, 100, 200, 400, 800])
  })

  it('spans [0, ceiling): random 0 gives 0, random just below 1 gives just below the ceiling', () => {
    expect(retryDelay(3, { baseDelayMs: 100, maxDelayMs: 10_000 }, () => 0)).toBe(0)
    expect(retryDelay(3, { baseDelayMs: 100, maxDelayMs: 10_000 }, () => 0.9999)).toBe(399)
  })

  it('never exceeds maxDelayMs', () => {
    const almostOne = () => 0.9999
    expect([4, 5, 6, 10].map((n) => retryDelay(n, { baseDelayMs: 100, maxDelayMs: 500 }, almostOne))).toEqual([499, 499, 499, 499])
  })

  it('stays finite for huge attempt numbers', () => {
    expect(retryDelay(5_000, { baseDelayMs: 100, maxDelayMs: 8_000 }, () => 0.5)).toBe(4_000)
  })

  it('defaults to a 500 ms base and an 8 s cap', () => {
    expect(retryDelay(1, {}, () => 0.5)).toBe(250)
    expect(retryDelay(2, {}, () => 0.5)).toBe(500)
    expect(retryDelay(10, {}, () => 0.5)).toBe(4_000)
  })

  it('uses Math.random when no random source is given', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25)
    expect(retryDelay(2, { baseDelayMs: 1_000, maxDelayMs: 10_000 })).toBe(500)
  })

  it('is 0 with a 0 base (no waiting at all)', () => {
    expect(retryDelay(7, { baseDelayMs: 0 }, () => 0.9)).toBe(0)
  })
})

describe('pollDelay', () => {
  const opts = { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0 }

  it('grows by factor from initialDelayMs up to maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((n) => pollDelay(n, opts, () => 0.5))).toEqual([10_000, 15_000, 20_000, 20_000, 20_000])
  })

  it('takes a random share of at most `jitter` off, never adding to the wait', () => {
    const jittered = { ...opts, jitter: 0.1 }
    expect(pollDelay(1, jittered, () => 0)).toBe(10_000)
    expect(pollDelay(1, jittered, () => 0.5)).toBe(9_500)
    expect(pollDelay(4, jittered, () => 0.9999)).toBe(18_000)
  })

  it('is constant with factor 1', () => {
    expect([1, 5, 50].map((n) => pollDelay(n, { ...opts, factor: 1 }, () => 0))).toEqual([10_000, 10_000, 10_000])
  })

  it('stays finite for huge poll numbers', () => {
    expect(pollDelay(100_000, { initialDelayMs: 1_000, factor: 2, maxDelayMs: 10_000, jitter: 0 })).toBe(10_000)
  })

  it('is 0 with a 0 initial delay', () => {
    expect(pollDelay(3, { initialDelayMs: 0, factor: 2, maxDelayMs: 10_000, jitter: 0.5 }, () => 0.3)).toBe(0)
  })
})

describe('backoff (virtual time)', () => {
  it('resubscribes after each error with exponential, jittered delays, then lets the last error through', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, boom)
      // delays: 0.5 * 100, 0.5 * 200, 0.5 * 400
      expectObservable(source.pipe(backoff({ count: 3, baseDelayMs: 100, random: () => 0.5 }))).toBe('354ms #', undefined, boom)
      expectSubscriptions(source.subscriptions).toBe(['^!', '51ms ^!', '152ms ^!', '353ms ^!'])
    })
  })

  it('caps each delay at maxDelayMs', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, boom)
      // ceilings 1000, 1500 (capped), 1500 → delays 500, 750, 750
      expectObservable(source.pipe(backoff({ count: 3, baseDelayMs: 1_000, maxDelayMs: 1_500, random: () => 0.5 }))).toBe('2004ms #', undefined, boom)
      expectSubscriptions(source.subscriptions).toBe(['^!', '501ms ^!', '1252ms ^!', '2003ms ^!'])
    })
  })

  it('passes values through and keeps them across retries', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('a-#', undefined, boom)
      expectObservable(source.pipe(backoff({ count: 1, baseDelayMs: 100, random: () => 0.5 }))).toBe('a 51ms a-#', undefined, boom)
    })
  })

  it('completes when a retry succeeds', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      let n = 0
      const flaky = cold('-#', undefined, boom)
      const good = cold('--a|')
      const source = defer(() => (n++ === 0 ? flaky : good))
      // error at 1, wait 0.5 * 10 = 5, resubscribe at 6, value at 8
      expectObservable(source.pipe(backoff({ count: 2, baseDelayMs: 10, random: () => 0.5 }))).toBe('--------a|')
      expectSubscriptions(good.subscriptions).toBe(['------^--!'])
    })
  })

  it('retries twice by default', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, boom)
      expectObservable(source.pipe(backoff({ random: () => 0 }))).toBe('---#', undefined, boom)
      expectSubscriptions(source.subscriptions).toBe(['^!', '-^!', '--^!'])
    })
  })

  it('does not retry with count 0', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, boom)
      expectObservable(source.pipe(backoff({ count: 0 }))).toBe('-#', undefined, boom)
      expectSubscriptions(source.subscriptions).toBe(['^!'])
    })
  })

  it('lets an error that shouldRetry refuses through at once', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, boom)
      expectObservable(source.pipe(backoff({ count: 5, shouldRetry: () => false }))).toBe('-#', undefined, boom)
      expectSubscriptions(source.subscriptions).toBe(['^!'])
    })
  })

  it('asks shouldRetry about each error', () => {
    const fatal = new Error('fatal')
    const seen: unknown[] = []
    testScheduler().run(({ cold, expectObservable }) => {
      let n = 0
      const source = defer(() => (n++ === 0 ? cold('-#', undefined, boom) : cold('-#', undefined, fatal)))
      const op = backoff({ count: 5, random: () => 0, shouldRetry: (e) => (seen.push(e), e === boom) })
      expectObservable(source.pipe(op)).toBe('--#', undefined, fatal)
    })
    expect(seen).toEqual([boom, fatal])
  })

  it('waits the error’s retryAfterMs (Retry-After) instead of the jittered delay', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const err = rateLimited(300)
      const source = cold('-#', undefined, err)
      expectObservable(source.pipe(backoff({ count: 1, baseDelayMs: 10, random: () => 0.5 }))).toBe('302ms #', undefined, err)
      expectSubscriptions(source.subscriptions).toBe(['^!', '301ms ^!'])
    })
  })

  it('waits a Retry-After equal to maxRetryAfterMs', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const err = rateLimited(1_000)
      const source = cold('-#', undefined, err)
      expectObservable(source.pipe(backoff({ count: 1, maxRetryAfterMs: 1_000 }))).toBe('1002ms #', undefined, err)
      expectSubscriptions(source.subscriptions).toBe(['^!', '1001ms ^!'])
    })
  })

  it('does not wait out a Retry-After beyond maxRetryAfterMs: the error goes through at once', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const err = rateLimited(60_001)
      const source = cold('-#', undefined, err)
      expectObservable(source.pipe(backoff({ count: 3 }))).toBe('-#', undefined, err)
      expectSubscriptions(source.subscriptions).toBe(['^!'])
    })
  })

  it('lets a huge, infinite or NaN Retry-After through at once under the default cap', () => {
    for (const ms of [2 ** 31, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY, Number.NaN]) {
      testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const err = rateLimited(ms)
        const source = cold('-#', undefined, err)
        expectObservable(source.pipe(backoff({ count: 3 }))).toBe('-#', undefined, err)
        expectSubscriptions(source.subscriptions).toBe(['^!'])
      })
    }
  })

  it('retries at once on a Retry-After of 0, still bounded by count', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const err = rateLimited(0)
      const source = cold('-#', undefined, err)
      expectObservable(source.pipe(backoff({ count: 2 }))).toBe('---#', undefined, err)
      expectSubscriptions(source.subscriptions).toBe(['^!', '-^!', '--^!'])
    })
  })

  it('does not resubscribe when unsubscribed while waiting', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-#', undefined, boom)
      expectObservable(source.pipe(backoff({ count: 3, baseDelayMs: 100, random: () => 0.5 })), '^ 30ms !').toBe('-')
      expectSubscriptions(source.subscriptions).toBe(['^!'])
    })
  })
})

describe('backoff with an injected scheduler', () => {
  it('schedules its wait on that scheduler and clears it on unsubscribe', () => {
    const scheduler = new ManualScheduler()
    let subscriptions = 0
    const source = defer(() => {
      subscriptions++
      return throwError(() => boom)
    })
    const sub = source.pipe(backoff({ count: 3, baseDelayMs: 1_000, random: () => 0.5, scheduler })).subscribe({ error: () => {} })
    expect(subscriptions).toBe(1)
    expect(scheduler.pendingDelays).toEqual([500])
    scheduler.advanceBy(499)
    expect(subscriptions).toBe(1)
    scheduler.advanceBy(1)
    expect(subscriptions).toBe(2)
    expect(scheduler.pendingDelays).toEqual([1_000])
    sub.unsubscribe()
    expect(scheduler.pending).toBe(0)
    scheduler.advanceBy(10_000)
    expect(subscriptions).toBe(2)
  })

  it('unsubscribes from the source when unsubscribed', () => {
    const scheduler = new ManualScheduler()
    let tornDown = false
    const source = new Observable<number>(() => () => {
      tornDown = true
    })
    source.pipe(backoff({ scheduler })).subscribe().unsubscribe()
    expect(tornDown).toBe(true)
  })
})

describe('backoff on real timers', () => {
  // Node clamps a delay above 2^31-1 ms to 1 ms: handing a timer such a wait
  // would retry at once, again and again.
  it.each([
    ['a Retry-After that maxRetryAfterMs allows', () => rateLimited(2 ** 31), { maxRetryAfterMs: Number.MAX_SAFE_INTEGER }],
    ['a jittered delay from huge baseDelayMs and maxDelayMs', () => boom, { baseDelayMs: 2 ** 40, maxDelayMs: 2 ** 40, random: () => 0.5 }],
  ] as const)('never hands a timer more than it can hold: %s (no 1 ms busy loop)', async (_, error, options) => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.name)
    process.on('warning', onWarning)
    let subscriptions = 0
    const source = defer(() => {
      subscriptions++
      return throwError(error)
    })
    const sub = source.pipe(backoff({ count: 3, ...options })).subscribe({ error: () => {} })
    await new Promise((r) => setTimeout(r, 40))
    sub.unsubscribe()
    process.off('warning', onWarning)
    expect(subscriptions).toBe(1)
    expect(warnings).not.toContain('TimeoutOverflowWarning')
  })
})
