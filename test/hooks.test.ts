import { describe, expect, it, vi } from 'vitest'
import type { RequestEvent, ResponseEvent } from '../src/hooks.js'
import { responses$ } from '../src/responses$.js'
import { fakeClient, inTurn, onClock } from './helpers/client.js'
import { settle } from './helpers/clock.js'
import { observe } from './helpers/collect.js'
import { json, never, sse } from './helpers/fakeTransport.js'
import { frame, KEY, lifecycle, response } from './helpers/fixtures.js'
import { expectNoKeyFragment } from './helpers/secrets.js'

function hooked(answer: Parameters<typeof fakeClient>[0], more: Parameters<typeof fakeClient>[1] = {}) {
  const requests: RequestEvent[] = []
  const responses: ResponseEvent[] = []
  const setup = fakeClient(answer, { retry: { baseDelayMs: 0 }, hooks: { onRequest: (e) => requests.push(e), onResponse: (e) => responses.push(e) }, ...more })
  return { ...setup, requests, responses }
}

describe('hooks: onRequest and onResponse', () => {
  it('tell of each request as it leaves and of how it ended: id, method, path without the query, retry number, status, duration, ok', async () => {
    const { client, clock, requests, responses } = hooked(() => json(response()))
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(requests).toEqual([{ id: 1, method: 'POST', path: '/vendors/vendor-a/v1/responses', retry: 0, startedAt: expect.any(Number) }])
    expect(responses).toEqual([{ ...requests[0], status: 200, durationMs: expect.any(Number), outcome: 'ok' }])
    expect(responses[0]!.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('number the tries of a retried call: a request per try, retry 0 then 1, the failed one an error', async () => {
    const { client, clock, requests, responses } = hooked(inTurn(json({ detail: 'busy' }, 503), json(response())))
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(requests.map((r) => [r.id, r.retry])).toEqual([
      [1, 0],
      [2, 1],
    ])
    expect(responses.map((r) => [r.id, r.status, r.outcome, r.error?.name])).toEqual([
      [1, 503, 'error', 'HttpError'],
      [2, 200, 'ok', undefined],
    ])
  })

  it('tell of a request its subscriber left before the reply as aborted', async () => {
    const { client, requests, responses } = hooked(() => never())
    const o = observe(responses$(client, { model: 'm' }))
    await settle()
    o.subscription.unsubscribe()
    await settle()
    expect(requests).toHaveLength(1)
    expect(responses.map((r) => [r.status, r.outcome])).toEqual([[undefined, 'aborted']])
  })

  it('tell of a request that timed out, before the reply or in the middle of its body, as an error with the TimeoutError', async () => {
    for (const answer of [() => never(), () => ({ status: 200, body: 'fed' as const })]) {
      const { client, clock, requests, responses } = hooked(answer, { timeoutMs: 1_000, retry: { count: 0 } })
      const o = observe(responses$(client, { model: 'm' }))
      await clock.run(1_000)
      expect((o.error as Error | undefined)?.name).toBe('TimeoutError')
      expect(requests).toHaveLength(1)
      expect(responses.map((r) => [r.outcome, r.error])).toEqual([['error', o.error]])
    }
  })

  it('tell of a request its subscriber left in the middle of the body as aborted', async () => {
    const { gw, client, requests, responses } = hooked(() => ({ status: 200, body: 'fed' }))
    const o = observe(responses$(client, { model: 'm' }))
    await settle()
    gw.request(1).fed!.push('{"id":')
    await settle()
    o.subscription.unsubscribe()
    await settle()
    expect(requests).toHaveLength(1)
    expect(responses.map((r) => [r.status, r.outcome])).toEqual([[200, 'aborted']])
  })

  it('end a stream’s request when its last event has been read', async () => {
    const { client, clock, responses } = hooked(() => sse(frame(lifecycle('response.created', 0)) + frame(lifecycle('response.completed', 1))))
    await onClock(clock, observe(responses$(client, { model: 'm', stream: true }))).done
    await settle()
    expect(responses.map((r) => [r.status, r.outcome])).toEqual([[200, 'ok']])
  })

  it('never show the key: an error echoing it is masked in onResponse', async () => {
    const { client, clock, responses } = hooked(() => json({ detail: `bad key ${KEY}` }, 401))
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(responses[0]!.outcome).toBe('error')
    expectNoKeyFragment(responses[0]!.error)
  })

  it('tell of every request of a client without a budget too (no rate-limit pacing, no concurrency limit)', async () => {
    const { client, clock, requests, responses } = hooked(inTurn(json({ detail: 'busy' }, 503), json(response())), { adaptToRateLimits: false })
    const { completed } = await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(completed).toBe(true)
    expect(requests.map((r) => r.retry)).toEqual([0, 1])
    expect(responses.map((r) => [r.status, r.outcome])).toEqual([
      [503, 'error'],
      [200, 'ok'],
    ])
  })

  it('measure a request’s duration from when it left to when it ended', async () => {
    const before = performance.now()
    const { client, clock, responses } = hooked(() => json(response()))
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    const elapsed = performance.now() - before
    expect(responses[0]!.durationMs).toBeGreaterThanOrEqual(0)
    expect(responses[0]!.durationMs).toBeLessThanOrEqual(elapsed)
  })

  it('never show the key: a network error echoing it is masked in onResponse', async () => {
    const { client, clock, responses } = hooked(() => new Error(`connect failed for Bearer ${KEY}`), { retry: false })
    const o = await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(o.error).toBeDefined()
    expect(responses.map((r) => r.outcome)).toEqual(['error'])
    expectNoKeyFragment(responses[0]!.error)
  })

  it('a hook that throws does not break the call (its error is reported as uncaught)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    try {
      const { client, clock } = fakeClient(() => json(response()), {
        hooks: {
          onRequest: () => {
            throw new Error('hook bug')
          },
        },
      })
      const { values, completed } = await onClock(clock, observe(responses$(client, { model: 'm' }))).done
      expect(completed).toBe(true)
      expect(values).toHaveLength(1)
      expect(() => vi.runAllTimers()).toThrow('hook bug')
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('the client budget (maxConcurrency)', () => {
  it('sends at most maxConcurrency requests at once; the next leaves when one ends', async () => {
    const { gw, client, clock } = fakeClient(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: 'fed' }), { maxConcurrency: 1 })
    const a = onClock(clock, observe(responses$(client, { model: 'a' })))
    const b = onClock(clock, observe(responses$(client, { model: 'b' })))
    await settle()
    expect(gw.requests.map((r) => (r.json as { model: string }).model)).toEqual(['a'])
    gw.request(1).fed!.push(JSON.stringify(response()))
    gw.request(1).fed!.end()
    await a.done
    await settle()
    expect(gw.requests.map((r) => (r.json as { model: string }).model)).toEqual(['a', 'b'])
    gw.request(2).fed!.push(JSON.stringify(response()))
    gw.request(2).fed!.end()
    expect((await b.done).completed).toBe(true)
  })

  it('never sends a call unsubscribed while it waited its turn', async () => {
    const { gw, client } = fakeClient(() => never(), { maxConcurrency: 1 })
    const first = observe(responses$(client, { model: 'a' }))
    const waiting = observe(responses$(client, { model: 'b' }))
    await settle()
    waiting.subscription.unsubscribe()
    first.subscription.unsubscribe() // frees the one place
    await settle()
    expect(gw.requests.map((r) => (r.json as { model: string }).model)).toEqual(['a'])
  })

  it('pauses the client for at most retry.maxRetryAfterMs, however long the Retry-After', async () => {
    const { gw, client, clock } = fakeClient(inTurn(json({}, 429, { 'retry-after': '30' }), json(response())), { retry: { count: 0, maxRetryAfterMs: 1_000 } })
    const first = onClock(clock, observe(responses$(client, { model: 'a' })))
    expect((await first.done).error).toMatchObject({ name: 'HttpError', status: 429 })
    const other = onClock(clock, observe(responses$(client, { model: 'b' })))
    await clock.run(999)
    expect(gw.requests).toHaveLength(1)
    await clock.run(1)
    expect(gw.requests).toHaveLength(2)
    expect((await other.done).completed).toBe(true)
  })

  it('pauses every call of the client for the Retry-After of a rate-limiting 429', async () => {
    const { gw, client, clock } = fakeClient(inTurn(json({}, 429, { 'retry-after': '3' }), json(response())), { retry: { baseDelayMs: 0 } })
    observe(responses$(client, { model: 'a' }))
    await settle()
    const other = onClock(clock, observe(responses$(client, { model: 'b' })))
    await settle()
    expect(gw.requests).toHaveLength(1)
    await clock.run(2_999)
    expect(gw.requests).toHaveLength(1)
    await clock.run(1)
    expect(gw.requests.length).toBeGreaterThan(1)
    expect((await other.done).completed).toBe(true)
  })
})
