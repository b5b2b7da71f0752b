import { describe, expect, it } from 'vitest'
import type { ClientOptions } from '../src/client.js'
import { endpoints } from '../src/endpoints.js'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { createClient } from '../src/client.js'
import { createGateway, gatewayOf } from '../src/gateway.js'
import { VirtualClock } from './helpers/clock.js'
import { BASE, onClock } from './helpers/client.js'
import { observe } from './helpers/collect.js'
import { fakeGateway, json, sse, type SeenRequest } from './helpers/fakeTransport.js'
import { created, frame, KEY, lifecycle, response, T2V, TASK_ID, taskReply } from './helpers/fixtures.js'

// The facade only binds the standalone functions to one client: each method
// is checked to reach the gateway as its function does (the functions' own
// behaviour is tested in responses.test.ts and tasks.test.ts).

function setup() {
  const gw = fakeGateway((req: SeenRequest) => {
    if (req.path.includes('stream=true') || (req.json as { stream?: boolean } | undefined)?.stream) return sse(frame(lifecycle('response.completed', 0)))
    if (req.path.startsWith(T2V) || req.path.startsWith('/vendors/vendor-d')) return req.method === 'POST' ? json(created(), 202) : json(taskReply('completed', req.path.startsWith('/vendors/vendor-d') ? { field: 'images' } : {}))
    return json(response({ status: req.path.endsWith('/cancel') ? 'cancelled' : 'completed' }))
  })
  const clock = new VirtualClock()
  const gateway = createGateway({ baseUrl: BASE, apiKey: KEY, transport: gw.transport, scheduler: clock, taskPoll: { initialDelayMs: 1, jitter: 0 } } as ClientOptions)
  return { gw, clock, gateway }
}

describe('createGateway', () => {
  it('throws InvalidRequestError at once for bad options, like createClient', () => {
    expect(() => createGateway({ baseUrl: 'nope' } as ClientOptions)).toThrow(InvalidRequestError)
  })

  it('exposes its plain-data client', () => {
    const { gateway } = setup()
    expect(gateway.client).toMatchObject({ baseUrl: BASE, secret: KEY })
  })

  it('gatewayOf binds the calls to a client already made: its requests share that client’s budget and hooks', async () => {
    const { gw, clock } = setup()
    const seen: string[] = []
    const client = createClient({ baseUrl: BASE, apiKey: KEY, transport: gw.transport, scheduler: clock, hooks: { onRequest: (r) => seen.push(r.path) } })
    const gateway = gatewayOf(client)
    expect(gateway.client).toBe(client)
    await onClock(clock, observe(gateway.responses$({ model: 'm' }))).done
    expect(seen).toEqual(['/vendors/vendor-a/v1/responses'])
  })

  it.each([
    ['responses$', (g: ReturnType<typeof setup>['gateway']) => g.responses$({ model: 'm' }), ['POST /vendors/vendor-a/v1/responses']],
    ['responses$ with stream', (g: ReturnType<typeof setup>['gateway']) => g.responses$({ model: 'm', stream: true }), ['POST /vendors/vendor-a/v1/responses']],
    ['retrieveResponse$', (g: ReturnType<typeof setup>['gateway']) => g.retrieveResponse$('resp_1'), ['GET /vendors/vendor-a/v1/responses/resp_1']],
    ['retrieveResponse$ with stream', (g: ReturnType<typeof setup>['gateway']) => g.retrieveResponse$('resp_1', { stream: true, startingAfter: 2 }), ['GET /vendors/vendor-a/v1/responses/resp_1?stream=true&starting_after=2']],
    ['cancelResponse$', (g: ReturnType<typeof setup>['gateway']) => g.cancelResponse$('resp_1'), ['POST /vendors/vendor-a/v1/responses/resp_1/cancel']],
    ['textToVideo$', (g: ReturnType<typeof setup>['gateway']) => g.textToVideo$({ prompt: 'p' }, { idempotencyKey: 'k-1' }), [`POST ${T2V}`, `GET ${T2V}/${TASK_ID}`]],
    ['createTask$', (g: ReturnType<typeof setup>['gateway']) => g.createTask$(endpoints.i2iPreview, { prompt: 'p' }), ['POST /vendors/vendor-d/v1/i2i-preview/generation', `GET /vendors/vendor-d/v1/i2i-preview/generation/${TASK_ID}`]],
    ['task$', (g: ReturnType<typeof setup>['gateway']) => g.task$(endpoints.t2vSpark, TASK_ID), [`GET ${T2V}/${TASK_ID}`]],
    ['runTools$', (g: ReturnType<typeof setup>['gateway']) => g.runTools$({ model: 'm' }, { get_weather: () => 'x' }), ['POST /vendors/vendor-a/v1/responses']],
  ])('%s sends nothing until subscribed, then calls the gateway as its function does, and completes', async (_, call, requests) => {
    const { gw, clock, gateway } = setup()
    const call$ = call(gateway)
    await clock.run(0)
    expect(gw.requests).toHaveLength(0)
    const o = onClock(clock, observe<unknown>(call$))
    const { completed, error } = await o.done
    expect(error).toBeUndefined()
    expect(completed).toBe(true)
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual(requests)
  })

  it('passes per-call options through (the caller’s Idempotency-Key)', async () => {
    const { gw, clock, gateway } = setup()
    await onClock(clock, observe(gateway.textToVideo$({ prompt: 'p' }, { idempotencyKey: 'k-1' }))).done
    expect(gw.request(1).headers['idempotency-key']).toBe('k-1')
  })
})
