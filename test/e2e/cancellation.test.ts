import { take } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../src/index.js'
import { FROZEN, gatewayFor, MODEL, observe, pause, requestsTo, simulator, TRANSPORTS } from './helpers.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'

describe.each(TRANSPORTS)('unsubscribing end to end over $name', ({ options }) => {
  it('mid-stream: the simulator sees the connection closed by the client and the stream aborted; nothing more is emitted', async () => {
    const sim = await simulator({ streamDelayMs: 40 })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.responses$({ model: MODEL, input: 'a long stream', stream: true }))
    await vi.waitFor(() => expect(o.values.length).toBeGreaterThanOrEqual(3))
    expect(sim.openConnections).toBe(1)
    expect(sim.connectionsClosedByClient).toBe(0)
    o.subscription.unsubscribe()
    // At least one close: undici may open (and close) a spare idle connection right after an abort.
    await vi.waitFor(() => expect(sim.connectionsClosedByClient).toBeGreaterThanOrEqual(1), { timeout: 3_000 })
    await vi.waitFor(() => expect(sim.openConnections).toBe(0), { timeout: 3_000 })
    expect(sim.requests).toHaveLength(1)
    expect(sim.requests[0]).toMatchObject({ method: 'POST', path: RESPONSES, status: 200, aborted: true })
    const seen = o.values.length
    await pause(120) // three more frames' time
    expect(o.values).toHaveLength(seen)
    expect(o.completed).toBe(false)
    expect(o.error).toBeUndefined()
  })

  it('through take(n) on a stream: the stream is aborted once n events arrived', async () => {
    const sim = await simulator({ streamDelayMs: 40 })
    const gateway = gatewayFor(sim, options)
    const o = await observe(gateway.responses$({ model: MODEL, input: 'take two', stream: true }).pipe(take(2))).done
    expect(o.completed).toBe(true)
    expect(o.values).toHaveLength(2)
    await vi.waitFor(() => expect(sim.requests[0]?.aborted).toBe(true))
    await vi.waitFor(() => expect(sim.connectionsClosedByClient).toBeGreaterThanOrEqual(1), { timeout: 3_000 })
    expect(sim.requests).toHaveLength(1)
  })

  it('before the headers (a slow gateway): the request is aborted and never answered', async () => {
    const sim = await simulator({ faults: { latencyMs: 2_000 } })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.responses$({ model: MODEL, input: 'never mind' }))
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1))
    o.subscription.unsubscribe()
    await vi.waitFor(() => expect(sim.requests[0]!.aborted).toBe(true))
    expect(sim.requests[0]!.status).toBe(0)
    await vi.waitFor(() => expect(sim.connectionsClosedByClient).toBeGreaterThanOrEqual(1), { timeout: 3_000 })
    expect(sim.requests).toHaveLength(1)
  })

  it('while a task is polled: no request to the result path afterwards', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.textToVideo$({ prompt: 'cancel the wait' }))
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath).length).toBeGreaterThanOrEqual(2))
    o.subscription.unsubscribe()
    await pause(30) // a read already on the wire may still arrive
    const reads = requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath).length
    await pause(200) // several poll intervals (30 ms)
    expect(requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath)).toHaveLength(reads)
    expect(requestsTo(sim, 'POST', endpoints.t2vSpark.createPath!)).toHaveLength(1)
    expect(o.values.map((e) => e.type)).toEqual(['created', 'pending'])
  })

  it('while task$ follows a task: the shared poll loop stops with the last subscriber', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const created = observe(gateway.createTask$(endpoints.i2iPreview, { prompt: 'shared' }).pipe(take(1)))
    const { values } = await created.done
    const id = values[0]!.taskId
    const path = `${endpoints.i2iPreview.resultPath}/${id}`
    const a = observe(gateway.task$(endpoints.i2iPreview, id))
    const b = observe(gateway.task$(endpoints.i2iPreview, id))
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', path).length).toBeGreaterThanOrEqual(3))
    a.subscription.unsubscribe()
    const whileOne = requestsTo(sim, 'GET', path).length
    await pause(150)
    expect(requestsTo(sim, 'GET', path).length).toBeGreaterThan(whileOne) // b still follows it
    b.subscription.unsubscribe()
    const after = requestsTo(sim, 'GET', path).length
    await pause(200)
    expect(requestsTo(sim, 'GET', path)).toHaveLength(after)
  })

  it('while a background response is polled: no request afterwards', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.responses$({ model: MODEL, input: 'bg', background: true, store: true }))
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', RESPONSES).length).toBeGreaterThanOrEqual(2))
    o.subscription.unsubscribe()
    const reads = requestsTo(sim, 'GET', RESPONSES).length
    await pause(150)
    expect(requestsTo(sim, 'GET', RESPONSES)).toHaveLength(reads)
  })

  it('while waiting out a Retry-After: the retry is never sent', async () => {
    const sim = await simulator({ faults: { rateLimit: { every: 1, retryAfter: '0.3' } } })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.retrieveResponse$('resp_wait'))
    await vi.waitFor(() => expect(sim.requests.map((r) => r.status)).toEqual([429]))
    o.subscription.unsubscribe()
    await pause(500)
    expect(sim.requests).toHaveLength(1)
  })
})
