import { catchError, firstValueFrom, forkJoin, of } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient, type ClientOptions } from '../../src/client.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { Budget } from '../../src/policy/budget.js'
import { responses$ } from '../../src/responses$.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import type { RequestSpec } from '../../src/transport/types.js'
import { simulator } from '../sim/helpers.js'
import { VirtualClock } from '../helpers/clock.js'

// maxRequestsPerSecond prevents rate limits instead of reacting to them.

const SPEC: RequestSpec = { method: 'POST', path: '/p' }

describe('maxRequestsPerSecond', () => {
  it('admits requests evenly spaced, 1000 / n ms apart, whatever arrives at once; a quiet spell saves no burst', async () => {
    const clock = new VirtualClock()
    const budget = new Budget({ maxConcurrency: Number.POSITIVE_INFINITY, adaptive: false, maxPauseMs: 60_000, scheduler: clock, maxRequestsPerSecond: 4 })
    const at: number[] = []
    const enter = () => {
      const got = budget.enter(SPEC, new AbortSwitch())
      const take = (pass: { done: (e?: unknown) => void }) => (at.push(clock.now()), pass.done())
      return got instanceof Promise ? got.then(take) : Promise.resolve(take(got))
    }
    const first = Array.from({ length: 5 }, enter)
    await clock.run(2_000)
    await Promise.all(first)
    expect(at).toEqual([0, 250, 500, 750, 1000])
    await clock.run(10_000) // quiet for a while
    const later = Array.from({ length: 2 }, enter)
    await clock.run(2_000)
    await Promise.all(later)
    const start = at[5]!
    expect(at.slice(5)).toEqual([start, start + 250])
  })

  // Real time on a real server. With the option, the client sends at most 1 + t/50 requests by time t
  // and the gateway's bucket holds 20 + t/50, so no delay on a busy machine can make it refuse one.
  // Without it, the 40 go at once: only arrivals spread over a whole second (the bucket refilling)
  // would let them all pass. The timeout guards a hang only.
  it('against a gateway allowing 20 requests a second, 40 calls at once draw no 429; without it they do', async () => {
    const refused = async (options: Partial<ClientOptions>) => {
      const sim = await simulator({ faults: { rateLimitPerSecond: { limit: 20, retryAfter: '1' } } })
      const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, ...options })
      await firstValueFrom(forkJoin(Array.from({ length: 40 }, (_, i) => responses$(client, { model: 'm', input: `hi ${i}` }).pipe(catchError(() => of(undefined))))))
      return { refused: sim.requests.filter((r) => r.status === 429).length, sent: sim.requests.length }
    }
    expect(await refused({ maxRequestsPerSecond: 20 })).toEqual({ refused: 0, sent: 40 })
    // No retries: the first attempts are what is counted, and the run ends without waiting out a Retry-After.
    expect((await refused({ retry: false })).refused).toBeGreaterThan(0)
  }, 60_000)

  it.each([0, -1, Number.NaN, '5'])('refuses %j with InvalidRequestError', (value) => {
    let error: unknown
    try {
      createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', maxRequestsPerSecond: value as number })
    } catch (err) {
      error = err
    }
    expect(isInvalidRequestError(error) && (error as Error).message).toMatch(/maxRequestsPerSecond/)
  })
})
