import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { lastValueFrom, take, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { endpoints } from '../../src/endpoints.js'
import { openTelemetry } from '../../src/otel/index.js'
import { responses$, retrieveResponse$ } from '../../src/responses$.js'
import { task$, textToVideo$ } from '../../src/tasks$.js'
import { waitFor } from '../helpers/server.js'
import { childrenOf, only, OTEL_KEY, QUICK_POLLS, quickSim, recorder, recordingProxy, syncContext, traceparentOf } from './helpers.js'

async function setup(telemetryOptions: Parameters<typeof openTelemetry>[0] = {}) {
  const otel = recorder()
  const sim = await quickSim()
  const proxy = await recordingProxy(sim.url)
  const client = createClient({ baseUrl: proxy.url, apiKey: OTEL_KEY, ...QUICK_POLLS, telemetry: openTelemetry({ tracer: otel.tracer, meter: otel.meter, ...telemetryOptions }) })
  return { ...otel, sim, proxy, client }
}

describe('openTelemetry: a span per call', () => {
  it('a streamed response: a CLIENT span "chat {model}" with the GenAI attributes, parent of the HTTP span whose traceparent the gateway received', async () => {
    const { client, spans, sim, proxy } = await setup()
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', stream: true }))
    // The request's span ends when its body does, a moment after the last event.
    await waitFor(() => spans().length === 2, 2_000, 'the HTTP span to end')
    const all = spans()
    const op = only(all, 'chat gpt-4.1-mini')
    expect(op.kind).toBe(SpanKind.CLIENT)
    expect(op.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'vendor-a',
      'gen_ai.request.model': 'gpt-4.1-mini',
      'gen_ai.request.stream': true,
      'gen_ai.output.type': 'text',
      'gen_ai.response.id': sim.responses[0]!.id,
      'gen_ai.response.model': expect.stringContaining('gpt-4.1-mini'),
      'gen_ai.response.finish_reasons': ['stop'],
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(proxy.url).port),
    })
    expect(op.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0)
    expect(op.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0)
    expect(op.status.code).toBe(SpanStatusCode.UNSET)
    const attempts = childrenOf(all, op)
    expect(attempts.map((s) => [s.name, s.kind, s.attributes['http.response.status_code']])).toEqual([['POST', SpanKind.CLIENT, 200]])
    expect(op.spanContext().traceId).toBe(attempts[0]!.spanContext().traceId)
    expect(proxy.seen.map((s) => s.headers.traceparent)).toEqual([traceparentOf(attempts[0]!)])
  })

  it('a single response: the same span without gen_ai.request.stream; settings of the request are recorded', async () => {
    const { client, spans } = await setup()
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', temperature: 0.5, max_output_tokens: 64 }))
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect(op.attributes).toMatchObject({ 'gen_ai.request.temperature': 0.5, 'gen_ai.request.max_tokens': 64, 'gen_ai.response.finish_reasons': ['stop'] })
    expect(op.attributes).not.toHaveProperty('gen_ai.request.stream')
    expect(childrenOf(spans(), op)).toHaveLength(1)
  })

  it('a background response: one chat span over the creation and every poll, each an HTTP child whose traceparent the gateway received', async () => {
    const { client, spans, proxy } = await setup()
    const statuses = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', background: true }).pipe(toArray()))
    expect(statuses.at(-1)!.status).toBe('completed')
    const all = spans()
    const op = only(all, 'chat gpt-4.1-mini')
    expect(op.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.response.id': statuses[0]!.id })
    const attempts = childrenOf(all, op)
    expect(attempts.map((s) => s.name)).toEqual(['POST', ...Array(attempts.length - 1).fill('GET')])
    expect(attempts.length).toBeGreaterThanOrEqual(3)
    expect(proxy.seen.map((s) => s.headers.traceparent)).toEqual(attempts.map(traceparentOf))
    expect(attempts[1]!.attributes['url.full']).toBe(`${proxy.url}/vendors/vendor-a/v1/responses/${statuses[0]!.id}`)
  })

  it('a task created and followed: one "generate_content {model}" span with its task id and each status as an event', async () => {
    const { client, spans, proxy } = await setup()
    const events = await lastValueFrom(textToVideo$(client, { prompt: 'A red kite over a grey sea', seed: 7 }).pipe(toArray()))
    expect(events.map((e) => e.type)).toEqual(['created', 'pending', 'processing', 'completed'])
    const all = spans()
    const op = only(all, 'generate_content t2v-spark')
    expect(op.kind).toBe(SpanKind.CLIENT)
    expect(op.attributes).toMatchObject({
      'gen_ai.operation.name': 'generate_content',
      'gen_ai.provider.name': 'vendor-b',
      'gen_ai.request.model': 't2v-spark',
      'gen_ai.request.seed': 7,
      'gen_ai.output.type': 'video',
      'gen_ai.response.id': events[0]!.taskId,
      'rxgate.task.id': events[0]!.taskId,
      'gen_ai.response.finish_reasons': ['stop'],
    })
    expect(op.events.map((e) => [e.name, e.attributes?.['rxgate.task.status']])).toEqual([
      ['rxgate.task.status', 'created'],
      ['rxgate.task.status', 'pending'],
      ['rxgate.task.status', 'processing'],
      ['rxgate.task.status', 'completed'],
    ])
    const attempts = childrenOf(all, op)
    expect(attempts[0]!.name).toBe('POST')
    expect(attempts.slice(1).every((s) => s.name === 'GET')).toBe(true)
    expect(proxy.seen.map((s) => s.headers.traceparent)).toEqual(attempts.map(traceparentOf))
  })

  it('a failed task ends its span in ERROR with error.type TaskFailedError and a failed event', async () => {
    const { client, spans } = await setup()
    await expect(lastValueFrom(textToVideo$(client, { prompt: 'A kite [fail:3001]' }))).rejects.toMatchObject({ name: 'TaskFailedError' })
    const op = only(spans(), 'generate_content t2v-spark')
    expect(op.status.code).toBe(SpanStatusCode.ERROR)
    expect(op.attributes).toMatchObject({ 'error.type': 'TaskFailedError', 'gen_ai.response.finish_reasons': ['error'] })
    expect(op.events.at(-1)!.attributes?.['rxgate.task.status']).toBe('failed')
  })

  it('task$ follows a task in a span of its own, named by the task id from the start', async () => {
    const { client, spans } = await setup()
    const created = await lastValueFrom(textToVideo$(client, { prompt: 'A kite' }).pipe(take(1)))
    await lastValueFrom(task$(client, endpoints.t2vSpark, created.taskId))
    const follows = spans().filter((s) => s.name === 'generate_content t2v-spark' && !s.attributes['rxgate.cancelled'])
    expect(follows).toHaveLength(1)
    expect(follows[0]!.attributes).toMatchObject({ 'rxgate.task.id': created.taskId, 'gen_ai.response.finish_reasons': ['stop'] })
    expect(follows[0]!.events.at(-1)!.attributes?.['rxgate.task.status']).toBe('completed')
  })

  it('a failed response ends its span in ERROR, error.type ResponseFailedError, with the response it names', async () => {
    const { client, spans } = await setup()
    await expect(lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi [fail]' }))).rejects.toMatchObject({ name: 'ResponseFailedError' })
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect(op.status.code).toBe(SpanStatusCode.ERROR)
    expect(op.status.message).toMatch(/failed/)
    expect(op.attributes).toMatchObject({ 'error.type': 'ResponseFailedError', 'gen_ai.response.finish_reasons': ['error'] })
    expect(op.attributes['gen_ai.response.id']).toEqual(expect.any(String))
  })

  it('a refused request (a wrong key): the call span is an HttpError, its HTTP span error.type is the status', async () => {
    const { tracer, spans } = recorder()
    const sim = await quickSim()
    const client = createClient({ baseUrl: sim.url, apiKey: 'sk-wrong-0123456789', telemetry: openTelemetry({ tracer }) })
    await expect(lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))).rejects.toMatchObject({ name: 'HttpError' })
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect([op.status.code, op.attributes['error.type']]).toEqual([SpanStatusCode.ERROR, 'HttpError'])
    const [attempt] = childrenOf(spans(), op)
    expect([attempt!.status.code, attempt!.attributes['error.type'], attempt!.attributes['http.response.status_code']]).toEqual([SpanStatusCode.ERROR, '401', 401])
  })

  it('unsubscribing ends the call span and the request in flight, status unset, rxgate.cancelled', async () => {
    const { client, spans, sim } = await setup()
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Write a long story', stream: true }).pipe(take(2)))
    await waitFor(() => spans().length === 2, 2_000, 'both spans to end')
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect([op.status.code, op.attributes['rxgate.cancelled'], op.attributes['error.type']]).toEqual([SpanStatusCode.UNSET, true, undefined])
    const [attempt] = childrenOf(spans(), op)
    expect([attempt!.status.code, attempt!.attributes['rxgate.cancelled']]).toEqual([SpanStatusCode.UNSET, true])
    expect(sim.responses).toHaveLength(1)
  })

  it('retrieveResponse$ is a "retrieve_response" span naming the response', async () => {
    const { client, spans } = await setup()
    const made = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', background: true }))
    await lastValueFrom(retrieveResponse$(client, made.id))
    const op = only(spans(), 'retrieve_response')
    expect(op.attributes).toMatchObject({ 'gen_ai.operation.name': 'retrieve_response', 'gen_ai.response.id': made.id, 'gen_ai.response.finish_reasons': ['stop'] })
    expect(childrenOf(spans(), op).map((s) => s.name)).toEqual(['GET'])
  })

  it("a span active around subscribe is the call span's parent", async () => {
    const { client, spans, tracer } = await setup()
    syncContext()
    const mine = tracer.startSpan('my work')
    const done = new Promise<void>((resolve, reject) => {
      context.with(trace.setSpan(context.active(), mine), () => responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }).subscribe({ error: reject, complete: resolve }))
    })
    await done
    mine.end()
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect(op.parentSpanContext?.spanId).toBe(mine.spanContext().spanId)
    expect(op.spanContext().traceId).toBe(mine.spanContext().traceId)
  })

  it('with no tracer given, the global one at the time of the call: a provider registered after the client is made is used', async () => {
    const { provider, spans } = recorder()
    const sim = await quickSim()
    const client = createClient({ baseUrl: sim.url, apiKey: OTEL_KEY, telemetry: openTelemetry() })
    trace.setGlobalTracerProvider(provider)
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    const op = only(spans(), 'chat gpt-4.1-mini')
    expect(op.instrumentationScope).toMatchObject({ name: 'rxgate', version: expect.any(String) })
  })

  it('providerName names the provider of every span', async () => {
    const { client, spans } = await setup({ providerName: 'acme.gateway' })
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    expect(only(spans(), 'chat gpt-4.1-mini').attributes['gen_ai.provider.name']).toBe('acme.gateway')
  })
})

describe('a call refused before anything is sent', () => {
  it.each([
    ['responses$', (client: ReturnType<typeof createClient>) => responses$(client, { model: 'gpt-4.1-mini', input: 'Hi' }, { deadlineMs: -1 })],
    ['retrieveResponse$', (client: ReturnType<typeof createClient>) => retrieveResponse$(client, 'resp_1', { deadlineMs: 0 })],
  ])('%s with a bad deadlineMs starts no operation, so no span is left open', async (_, call) => {
    let operations = 0
    const telemetry = { operation: () => (operations++, openTelemetry().operation({} as never)) }
    const client = createClient({ baseUrl: 'https://gateway.test', apiKey: OTEL_KEY, telemetry })
    await expect(lastValueFrom(call(client))).rejects.toMatchObject({ name: 'InvalidRequestError' })
    expect(operations).toBe(0)
  })
})
