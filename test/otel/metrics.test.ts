import { metrics } from '@opentelemetry/api'
import type { DataPoint, Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics'
import { lastValueFrom, take, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { openTelemetry } from '../../src/otel/index.js'
import { responses$ } from '../../src/responses$.js'
import { textToVideo$ } from '../../src/tasks$.js'
import { OTEL_KEY, QUICK_POLLS, quickSim, recorder } from './helpers.js'

/** The data points of the histogram `name`. */
function points(collected: ResourceMetrics, name: string): DataPoint<Histogram>[] {
  const metric = collected.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name)
  return (metric?.dataPoints ?? []) as DataPoint<Histogram>[]
}

describe('openTelemetry: metrics', () => {
  it('gen_ai.client.token.usage: input and output tokens of each response, by gen_ai.token.type', async () => {
    const { meter, collect } = recorder()
    const sim = await quickSim()
    const client = createClient({ baseUrl: sim.url, apiKey: OTEL_KEY, telemetry: openTelemetry({ meter }) })
    const response = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    const usage = response.usage!
    const tokens = points(await collect(), 'gen_ai.client.token.usage')
    expect(tokens.map((p) => [p.attributes['gen_ai.token.type'], p.value.sum, p.value.count])).toEqual([
      ['input', usage.prompt_tokens ?? usage.input_tokens, 1],
      ['output', usage.completion_tokens ?? usage.output_tokens, 1],
    ])
    expect(tokens[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'vendor-a', 'gen_ai.request.model': 'gpt-4.1-mini', 'gen_ai.response.model': response.model, 'server.address': '127.0.0.1' })
  })

  it('gen_ai.client.operation.duration: seconds per call, with error.type when it failed; none for a call left early', async () => {
    const { meter, collect } = recorder()
    const sim = await quickSim()
    const client = createClient({ baseUrl: sim.url, apiKey: OTEL_KEY, ...QUICK_POLLS, telemetry: openTelemetry({ meter }) })
    const started = performance.now()
    await lastValueFrom(textToVideo$(client, { prompt: 'A kite' }).pipe(toArray()))
    const elapsed = (performance.now() - started) / 1000
    await expect(lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'hi [fail]' }))).rejects.toMatchObject({ name: 'ResponseFailedError' })
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'hi', stream: true }).pipe(take(1)))
    const durations = points(await collect(), 'gen_ai.client.operation.duration')
    expect(durations.map((p) => [p.attributes['gen_ai.operation.name'], p.attributes['error.type'], p.value.count])).toEqual([
      ['generate_content', undefined, 1],
      ['chat', 'ResponseFailedError', 1],
    ])
    const task = durations[0]!.value
    expect(task.sum).toBeGreaterThan(0.25) // two statuses of 150 ms each
    expect(task.sum).toBeLessThanOrEqual(elapsed)
    expect(task.buckets.boundaries.slice(0, 3)).toEqual([0.01, 0.02, 0.04])
  })

  it('with no meter given, the global one at the time of each call', async () => {
    const { meterProvider, collect } = recorder()
    const sim = await quickSim()
    const client = createClient({ baseUrl: sim.url, apiKey: OTEL_KEY, telemetry: openTelemetry() })
    metrics.setGlobalMeterProvider(meterProvider)
    await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    const collected = await collect()
    expect(collected.scopeMetrics.map((s) => s.scope.name)).toEqual(['rxgate'])
    expect(points(collected, 'gen_ai.client.operation.duration')).toHaveLength(1)
  })
})
