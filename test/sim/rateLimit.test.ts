import { describe, expect, it } from 'vitest'
import { createRateBucket } from '../../src/sim/rateBucket.js'
import { call, RESPONSES, simulator } from './helpers.js'

describe('token bucket (rateLimitPerSecond), with time passed in', () => {
  it('lets a burst of `limit` through, then one request per 1000/limit ms', () => {
    const bucket = createRateBucket(4, 0)
    expect([0, 0, 0, 0].map((t) => bucket.take(t))).toEqual([0, 0, 0, 0])
    expect(bucket.take(0)).toBe(250)
    expect(bucket.take(100)).toBe(150)
    expect(bucket.take(250)).toBe(0)
    expect(bucket.take(250)).toBe(250)
  })

  it('reads a step back in time as no time passing, and counts on from there', () => {
    const bucket = createRateBucket(2, 10_000)
    expect(bucket.take(10_000)).toBe(0)
    const back = 10_000 - 3_600_000 // the wall clock set back an hour
    expect(bucket.take(back)).toBe(0) // the one token left, not a debt of two
    expect(bucket.take(back)).toBe(500)
    expect(bucket.take(back + 500)).toBe(0) // refilled at the rate from the new time on, not an hour later
  })

  it('refills no further than its size', () => {
    const bucket = createRateBucket(2, 0)
    expect([bucket.take(60_000), bucket.take(60_000), bucket.take(60_000)]).toEqual([0, 0, 500])
  })
})

describe('simulator: rateLimitPerSecond over HTTP', () => {
  it('answers 429 with Retry-After once a burst exceeds the rate', async () => {
    const sim = await simulator({ faults: { rateLimitPerSecond: { limit: 3 } } })
    const statuses = await Promise.all(Array.from({ length: 5 }, () => call(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })))
    expect(statuses.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429])
    const limited = statuses.find((r) => r.status === 429)!
    expect(limited.headers.get('retry-after')).toBe('1')
    expect((await limited.json()).error.code).toBe('rate_limit_exceeded')
    expect(sim.faultCounts).toEqual({ rateLimitPerSecond: 2 })
  })

  it('runs on the simulated clock: advanceTime refills the bucket as it moves tasks on', async () => {
    const sim = await simulator({ faults: { rateLimitPerSecond: { limit: 1, retryAfter: '30' } } })
    const send = async () => (await call(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })).status
    expect([await send(), await send()]).toEqual([200, 429])
    sim.advanceTime(30_000)
    expect(await send()).toBe(200)
  })

  it('sends the Retry-After given', async () => {
    const sim = await simulator({ faults: { rateLimitPerSecond: { limit: 1, retryAfter: '30' } } })
    await call(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })
    expect((await call(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })).headers.get('retry-after')).toBe('30')
  })
})
