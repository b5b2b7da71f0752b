import { defer, Observable, throwError } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { HttpError } from '../../src/errors/HttpError.js'
import { backoff } from '../../src/operators/backoff.js'
import { MAX_TIMER_MS } from '../../src/policy/delays.js'
import { VirtualClock } from '../helpers/clock.js'

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const boom = new Error('boom')
const rateLimited = (retryAfterMs: number) => new HttpError({ method: 'GET', path: '/x', status: 429, body: '', retryAfterMs })

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
    const clock = new VirtualClock()
    let subscriptions = 0
    const source = defer(() => {
      subscriptions++
      return throwError(() => boom)
    })
    const sub = source.pipe(backoff({ count: 3, baseDelayMs: 1_000, random: () => 0.5, scheduler: clock })).subscribe({ error: () => {} })
    expect(subscriptions).toBe(1)
    expect(clock.pendingDelays).toEqual([500])
    clock.advance(499)
    expect(subscriptions).toBe(1)
    clock.advance(1)
    expect(subscriptions).toBe(2)
    expect(clock.pendingDelays).toEqual([1_000])
    sub.unsubscribe()
    expect(clock.pending).toBe(0)
    clock.advance(10_000)
    expect(subscriptions).toBe(2)
  })

  it('unsubscribes from the source when unsubscribed', () => {
    let tornDown = false
    const source = new Observable<number>(() => () => {
      tornDown = true
    })
    source.pipe(backoff({ scheduler: new VirtualClock() })).subscribe().unsubscribe()
    expect(tornDown).toBe(true)
  })

  // Node fires a timer of more than 2^31-1 ms after 1 ms: such a wait would
  // retry at once, again and again.
  it.each([
    ['a Retry-After that maxRetryAfterMs allows', () => rateLimited(2 ** 31), { maxRetryAfterMs: Number.MAX_SAFE_INTEGER }, []],
    ['a jittered delay from huge baseDelayMs and maxDelayMs', () => boom, { baseDelayMs: 2 ** 40, maxDelayMs: 2 ** 40, random: () => 0.999 }, [Math.floor(0.999 * MAX_TIMER_MS)]],
  ] as const)('never hands a timer more than it can hold: %s', (_, error, options, delays) => {
    const clock = new VirtualClock()
    let subscriptions = 0
    let failed: unknown
    const source = defer(() => {
      subscriptions++
      return throwError(error)
    })
    source.pipe(backoff({ count: 3, ...options, scheduler: clock })).subscribe({ error: (e: unknown) => (failed = e) })
    expect(clock.pendingDelays).toEqual(delays)
    expect(subscriptions).toBe(1)
    if (delays.length === 0) expect(failed).toMatchObject({ status: 429, retryAfterMs: 2 ** 31 })
  })
})
