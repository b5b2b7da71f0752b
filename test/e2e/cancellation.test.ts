import { take } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../src/index.js'
import { clockedGatewayFor, FROZEN, gatewayFor, MODEL, observe, requestsTo, simulator } from './helpers.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'

// Unsubscribing, end to end: the simulator must see the request closed by
// the client, and nothing may be left scheduled. The client's timers run on a
// virtual clock, so "nothing happens afterwards" is shown by `clock.pending`
// being 0, not by waiting and seeing nothing.
describe('unsubscribing end to end', () => {
  it('mid-stream: the simulator sees the connection closed by the client; the subscriber gets nothing more', async () => {
    const sim = await simulator({ streamDelayMs: 40 })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.responses$({ model: MODEL, input: 'a long stream', stream: true }))
    await vi.waitFor(() => expect(o.values.length).toBeGreaterThanOrEqual(3))
    expect(sim.connectionsClosedByClient).toBe(0)
    o.subscription.unsubscribe()
    // At least one close: undici may open (and close) a spare idle connection right after an abort.
    await vi.waitFor(() => expect(sim.connectionsClosedByClient).toBeGreaterThanOrEqual(1), { timeout: 3_000 })
    expect(sim.requests).toHaveLength(1)
    expect(sim.requests[0]).toMatchObject({ method: 'POST', path: RESPONSES, status: 200, aborted: true })
    expect(clock.pending).toBe(0)
    expect(o.completed).toBe(false)
    expect(o.error).toBeUndefined()
  })

  it('through take(n) on a stream: the stream is aborted once n events arrived', async () => {
    const sim = await simulator({ streamDelayMs: 40 })
    const gateway = gatewayFor(sim)
    const o = await observe(gateway.responses$({ model: MODEL, input: 'take two', stream: true }).pipe(take(2))).done
    expect(o.completed).toBe(true)
    expect(o.values).toHaveLength(2)
    await vi.waitFor(() => expect(sim.requests[0]?.aborted).toBe(true))
    await vi.waitFor(() => expect(sim.connectionsClosedByClient).toBeGreaterThanOrEqual(1), { timeout: 3_000 })
    expect(sim.requests).toHaveLength(1)
  })

  it('before the headers (a slow gateway): the request is aborted and never answered', async () => {
    const sim = await simulator({ faults: { latencyMs: 2_000 } })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.responses$({ model: MODEL, input: 'never mind' }))
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1))
    o.subscription.unsubscribe()
    await vi.waitFor(() => expect(sim.requests[0]!.aborted).toBe(true))
    expect(sim.requests[0]!.status).toBe(0)
    expect(clock.pending).toBe(0) // the reply timeout went with the request
    expect(sim.requests).toHaveLength(1)
  })

  it('while a task waits for its next poll: the timer is cleared and no read follows', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.textToVideo$({ prompt: 'cancel the wait' }))
    await vi.waitFor(() => expect(o.values.map((e) => e.type)).toEqual(['created']))
    clock.advance(clock.pendingDelays[0]!) // the first poll
    await vi.waitFor(() => expect(o.values.map((e) => e.type)).toEqual(['created', 'pending']))
    await vi.waitFor(() => expect(clock.pending).toBe(1)) // waiting for the next poll
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    expect(requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath)).toHaveLength(1)
    expect(requestsTo(sim, 'POST', endpoints.t2vSpark.createPath!)).toHaveLength(1)
  })

  it('while a task read is on the wire: the read is aborted', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.textToVideo$({ prompt: 'cancel the read' }))
    await vi.waitFor(() => expect(o.values).toHaveLength(1))
    sim.setFaults({ latencyMs: 2_000 }) // the next read hangs
    clock.advance(clock.pendingDelays[0]!)
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath)).toHaveLength(1))
    o.subscription.unsubscribe()
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath)[0]!.aborted).toBe(true))
    expect(clock.pending).toBe(0)
  })

  it('while task$ follows a task: the shared poll loop stops with the last subscriber, not before', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { gateway, clock } = clockedGatewayFor(sim)
    const { values } = await observe(gateway.createTask$(endpoints.i2iPreview, { prompt: 'shared' }).pipe(take(1))).done
    const id = values[0]!.taskId
    const path = `${endpoints.i2iPreview.resultPath}/${id}`
    const a = observe(gateway.task$(endpoints.i2iPreview, id))
    const b = observe(gateway.task$(endpoints.i2iPreview, id))
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', path)).toHaveLength(1)) // one read for both
    await vi.waitFor(() => expect(clock.pending).toBe(1))
    a.subscription.unsubscribe()
    expect(clock.pending).toBe(1) // b still follows it
    clock.advance(clock.pendingDelays[0]!)
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', path)).toHaveLength(2))
    await vi.waitFor(() => expect(clock.pending).toBe(1))
    b.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
  })

  it('while a background response waits for its next poll: nothing is left scheduled', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.responses$({ model: MODEL, input: 'bg', background: true, store: true }))
    await vi.waitFor(() => expect(o.values.map((r) => r.status)).toEqual(['queued']))
    await vi.waitFor(() => expect(clock.pending).toBe(1))
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    expect(requestsTo(sim, 'GET', RESPONSES)).toHaveLength(0)
  })

  it('while waiting out a Retry-After: the retry is never sent', async () => {
    const sim = await simulator({ faults: { rateLimit: { every: 1, retryAfter: '30' } } })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.retrieveResponse$('resp_wait'))
    await vi.waitFor(() => expect(sim.requests.map((r) => r.status)).toEqual([429]))
    await vi.waitFor(() => expect(clock.pendingDelays).toEqual([30_000]))
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    expect(sim.requests).toHaveLength(1)
  })
})
