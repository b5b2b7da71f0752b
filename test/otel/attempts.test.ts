import { propagation, SpanStatusCode, type TextMapPropagator } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { lastValueFrom, of, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { openTelemetry } from '../../src/otel/index.js'
import { responses$, retrieveResponse$ } from '../../src/responses$.js'
import type { ExchangePart, TransportRequest } from '../../src/transport/types.js'
import { waitFor } from '../helpers/server.js'
import { cannedResponse, childrenOf, only, OTEL_KEY, quickSim, recorder, recordingProxy, scriptedServer, traceparentOf } from './helpers.js'

describe('openTelemetry: an HTTP span per try of each request', () => {
  it('a 5xx retried: two HTTP spans under the call, the first a 503 error, the second with http.request.resend_count 1, each named by the traceparent it sent', async () => {
    const { tracer, spans } = recorder()
    const server = await scriptedServer([
      { status: 503, body: { error: { message: 'busy' } } },
      { status: 200, body: cannedResponse() },
    ])
    const client = createClient({ baseUrl: server.url, apiKey: OTEL_KEY, idempotentCreate: true, retry: { baseDelayMs: 1 }, telemetry: openTelemetry({ tracer }) })
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect(op.status.code).toBe(SpanStatusCode.UNSET)
    expect(op.attributes).toMatchObject({ 'gen_ai.response.id': 'resp_canned1', 'gen_ai.response.model': 'gpt-4.1-mini-2025', 'gen_ai.usage.input_tokens': 5, 'gen_ai.usage.output_tokens': 7 })
    const [first, second, ...more] = childrenOf(spans(), op)
    expect(more).toEqual([])
    expect(first!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 503, 'error.type': '503', 'url.full': `${server.url}/vendors/vendor-a/v1/responses` })
    expect(first!.attributes).not.toHaveProperty('http.request.resend_count')
    expect(first!.status.code).toBe(SpanStatusCode.ERROR)
    expect(second!.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1, 'server.address': '127.0.0.1' })
    expect(second!.status.code).toBe(SpanStatusCode.UNSET)
    expect(server.seen.map((s) => s.headers.traceparent)).toEqual([traceparentOf(first!), traceparentOf(second!)])
  })

  it('a connection refused: the HTTP span fails with error.type ConnectionError, no status code', async () => {
    const { tracer, spans } = recorder()
    const server = await scriptedServer([{ status: 200, body: {} }])
    const closed = server.url.replace(/:\d+$/, ':1')
    const client = createClient({ baseUrl: closed, apiKey: OTEL_KEY, retry: false, telemetry: openTelemetry({ tracer }) })
    await expect(lastValueFrom(responses$(client, { model: 'm', input: 'hi' }))).rejects.toMatchObject({ name: 'ConnectionError' })
    const [attempt] = childrenOf(spans(), only(spans(), 'chat m'))
    expect([attempt!.status.code, attempt!.attributes['error.type'], attempt!.attributes['http.response.status_code']]).toEqual([SpanStatusCode.ERROR, 'ConnectionError', undefined])
  })

  it("url.full holds no query; a resumed stream's replay is traced under its retrieve_response span", async () => {
    const { tracer, spans } = recorder()
    const sim = await quickSim()
    const proxy = await recordingProxy(sim.url)
    const client = createClient({ baseUrl: proxy.url, apiKey: OTEL_KEY, telemetry: openTelemetry({ tracer }) })
    const first = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', stream: true, background: true }).pipe(toArray()))
    const id = first.find((e) => e.type === 'response.created')!.response.id
    await lastValueFrom(retrieveResponse$(client, id, { stream: true, startingAfter: 2 }))
    await waitFor(() => spans().length === 4, 2_000, 'every span to end')
    const [attempt] = childrenOf(spans(), only(spans(), 'retrieve_response'))
    expect(proxy.seen[1]!.url).toContain('starting_after=2')
    expect(attempt!.attributes['url.full']).toBe(`${proxy.url}/vendors/vendor-a/v1/responses/${id}`)
    expect(proxy.seen[1]!.headers.traceparent).toBe(traceparentOf(attempt!))
  })

  it('an exchange of your own (no Promise on the way), on a client with no budget, gets the traceparent too', async () => {
    const { tracer, spans } = recorder()
    const sent: TransportRequest[] = []
    const body = new TextEncoder().encode(JSON.stringify(cannedResponse()))
    const exchange = (request: TransportRequest) => {
      sent.push(request)
      return of<ExchangePart[]>({ type: 'head', status: 200, headers: { 'content-type': 'application/json' } }, { type: 'chunk', bytes: body })
    }
    const client = createClient({ baseUrl: 'https://gateway.test', apiKey: OTEL_KEY, exchange, adaptToRateLimits: false, telemetry: openTelemetry({ tracer }) })
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    const [attempt] = childrenOf(spans(), only(spans(), 'chat gpt-4.1-mini'))
    expect(attempt!.attributes).toMatchObject({ 'url.full': 'https://gateway.test/vendors/vendor-a/v1/responses', 'server.address': 'gateway.test', 'server.port': 443, 'http.response.status_code': 200 })
    expect(sent.map((r) => r.headers.traceparent)).toEqual([traceparentOf(attempt!)])
  })

  it('sends traceparent and tracestate, and the app’s baggage only with sendBaggage', async () => {
    const { tracer } = recorder()
    const withBaggage: TextMapPropagator = {
      inject: (ctx, carrier, setter) => {
        new W3CTraceContextPropagator().inject(ctx, carrier, setter)
        setter.set(carrier, 'tracestate', 'vendor=1')
        setter.set(carrier, 'baggage', 'tenant=acme,user=42')
      },
      extract: (ctx) => ctx,
      fields: () => ['traceparent', 'tracestate', 'baggage'],
    }
    propagation.disable()
    expect(propagation.setGlobalPropagator(withBaggage)).toBe(true)
    const server = await scriptedServer([
      { status: 200, body: cannedResponse() },
      { status: 200, body: cannedResponse() },
    ])
    const ask = { model: 'gpt-4.1-mini', input: 'Say hi' }
    await lastValueFrom(responses$(createClient({ baseUrl: server.url, apiKey: OTEL_KEY, telemetry: openTelemetry({ tracer }) }), ask))
    await lastValueFrom(responses$(createClient({ baseUrl: server.url, apiKey: OTEL_KEY, telemetry: openTelemetry({ tracer, sendBaggage: true }) }), ask))
    expect(server.seen[0]!.headers).toMatchObject({ traceparent: expect.stringMatching(/^00-/), tracestate: 'vendor=1' })
    expect(server.seen[0]!.headers.baggage).toBeUndefined()
    expect(server.seen[1]!.headers).toMatchObject({ baggage: 'tenant=acme,user=42' })
  })

  it('what a propagator injects never replaces the key or the call’s own headers', async () => {
    const { tracer } = recorder()
    const hostile: TextMapPropagator = {
      inject: (ctx, carrier, setter) => {
        new W3CTraceContextPropagator().inject(ctx, carrier, setter)
        setter.set(carrier, 'authorization', 'Bearer stolen')
        setter.set(carrier, 'idempotency-key', 'replaced')
      },
      extract: (ctx) => ctx,
      fields: () => ['traceparent', 'authorization', 'idempotency-key'],
    }
    propagation.disable() // the W3C one recorder() set
    expect(propagation.setGlobalPropagator(hostile)).toBe(true)
    const server = await scriptedServer([{ status: 200, body: cannedResponse() }])
    const client = createClient({ baseUrl: server.url, apiKey: OTEL_KEY, telemetry: openTelemetry({ tracer }) })
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }, { idempotencyKey: 'mine-0001' }))
    expect(server.seen[0]!.headers).toMatchObject({ authorization: `Bearer ${OTEL_KEY}`, 'idempotency-key': 'mine-0001', traceparent: expect.stringMatching(/^00-/) })
  })
})
