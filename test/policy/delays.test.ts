import { afterEach, describe, expect, it, vi } from 'vitest'
import { HttpError } from '../../src/errors/HttpError.js'
import { MAX_TIMER_MS, pollDelay, retryDelay, retryWait } from '../../src/policy/delays.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const rateLimited = (retryAfterMs: number) => new HttpError({ method: 'GET', path: '/x', status: 429, body: '', retryAfterMs })

describe('retryDelay', () => {
  it('doubles its ceiling per attempt and takes a random share of it (full jitter)', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, { baseDelayMs: 100, maxDelayMs: 10_000 }, () => 0.5))).toEqual([50, 100, 200, 400, 800])
  })

  it('spans [0, ceiling): random 0 gives 0, random just below 1 just below the ceiling', () => {
    expect(retryDelay(3, { baseDelayMs: 100, maxDelayMs: 10_000 }, () => 0)).toBe(0)
    expect(retryDelay(3, { baseDelayMs: 100, maxDelayMs: 10_000 }, () => 0.9999)).toBe(399)
  })

  it('never exceeds maxDelayMs', () => {
    expect([4, 5, 6, 10].map((n) => retryDelay(n, { baseDelayMs: 100, maxDelayMs: 500 }, () => 0.9999))).toEqual([499, 499, 499, 499])
  })

  it('stays finite for huge attempt numbers', () => {
    expect(retryDelay(5_000, { baseDelayMs: 100, maxDelayMs: 8_000 }, () => 0.5)).toBe(4_000)
  })

  it('defaults to a 500 ms base and an 8 s cap', () => {
    expect([1, 2, 10].map((n) => retryDelay(n, {}, () => 0.5))).toEqual([250, 500, 4_000])
  })

  it('uses Math.random when no random source is given', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25)
    expect(retryDelay(2, { baseDelayMs: 1_000, maxDelayMs: 10_000 })).toBe(500)
  })

  it('never gives more than a timer can hold (2^31-1 ms), whatever the settings', () => {
    expect(retryDelay(60, { baseDelayMs: 2 ** 40, maxDelayMs: 2 ** 40 }, () => 0.9999999)).toBeLessThanOrEqual(MAX_TIMER_MS)
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1)
  })
})

describe('pollDelay', () => {
  const opts = { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0 }

  it('grows by factor from initialDelayMs up to maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((n) => pollDelay(n, opts, () => 0.5))).toEqual([10_000, 15_000, 20_000, 20_000, 20_000])
  })

  it('takes a random share of at most `jitter` off, never adding to the wait', () => {
    const jittered = { ...opts, jitter: 0.1 }
    expect([pollDelay(1, jittered, () => 0), pollDelay(1, jittered, () => 0.5), pollDelay(4, jittered, () => 0.9999)]).toEqual([10_000, 9_500, 18_000])
  })

  it('is constant with factor 1, and 0 with a 0 initial delay', () => {
    expect([1, 5, 50].map((n) => pollDelay(n, { ...opts, factor: 1 }, () => 0))).toEqual([10_000, 10_000, 10_000])
    expect(pollDelay(3, { initialDelayMs: 0, factor: 2, maxDelayMs: 10_000, jitter: 0.5 }, () => 0.3)).toBe(0)
  })

  it('stays finite for huge poll numbers and never gives more than a timer can hold', () => {
    expect(pollDelay(100_000, { initialDelayMs: 1_000, factor: 2, maxDelayMs: 10_000, jitter: 0 })).toBe(10_000)
    expect(pollDelay(3, { initialDelayMs: 2 ** 40, factor: 2, maxDelayMs: 2 ** 41, jitter: 0 })).toBe(MAX_TIMER_MS)
  })
})

describe('retryWait', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 }

  it('waits the error’s retryAfterMs (the server’s Retry-After) instead of the jittered delay', () => {
    expect(retryWait(rateLimited(3_000), 1, options, () => 0.5)).toBe(3_000)
    expect(retryWait(rateLimited(0), 4, options, () => 0.5)).toBe(0)
  })

  it('waits a Retry-After equal to maxRetryAfterMs, and gives undefined (do not retry) past it', () => {
    expect(retryWait(rateLimited(5_000), 1, options)).toBe(5_000)
    expect(retryWait(rateLimited(5_001), 1, options)).toBeUndefined()
  })

  it('gives undefined for a Retry-After no timer can hold, infinite or NaN, even when maxRetryAfterMs allows it', () => {
    const unlimited = { ...options, maxRetryAfterMs: Number.MAX_SAFE_INTEGER }
    for (const ms of [2 ** 31, Number.POSITIVE_INFINITY, Number.NaN]) expect(retryWait(rateLimited(ms), 1, unlimited)).toBeUndefined()
  })

  it('caps Retry-After at 60 s by default', () => {
    expect(retryWait(rateLimited(60_000), 1, {})).toBe(60_000)
    expect(retryWait(rateLimited(60_001), 1, {})).toBeUndefined()
  })

  it('falls back to retryDelay for errors without a retryAfterMs', () => {
    expect(retryWait(new Error('x'), 3, options, () => 0.5)).toBe(200)
    expect(retryWait(new HttpError({ method: 'GET', path: '/x', status: 502, body: '' }), 1, options, () => 0.5)).toBe(50)
    expect(retryWait(null, 2, options, () => 0.5)).toBe(100)
    expect(retryWait({ retryAfterMs: '2000' }, 1, options, () => 0.5)).toBe(50)
  })
})
