import { lastValueFrom, toArray } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { jsonSchemaFormat } from '../../src/jsonSchemaFormat.js'
import { parsedOutput } from '../../src/operators/parsedOutput.js'
import { runTools$ } from '../../src/runTools$.js'
import { tool } from '../../src/tools/tool.js'
import { simulator } from './helpers.js'

// The library's tool loop against the simulator's model, end to end: what
// the wire tests show one response at a time, here through `runTools$`.

const WEATHER = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false },
  strict: true,
}
const Forecast = v.object({ location: v.string(), temperature: v.number(), summary: v.string() })

describe('simulator: a tool loop end to end', () => {
  it('runTools$ with a json_schema format, then parsedOutput: the answer after the tool round is typed JSON built from the output', async () => {
    const sim = await simulator()
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey })
    const body = { model: 'gpt-4.1-mini', input: '[preamble] Use get_weather: weather in Paris?', tools: [WEATHER], text: { format: jsonSchemaFormat(Forecast, 'forecast') } }
    const seen: unknown[] = []
    const handlers = { get_weather: (args: unknown) => (seen.push(args), { temperature: 21 }) }
    const forecast = await lastValueFrom(runTools$(client, body, handlers).pipe(parsedOutput(Forecast)))
    expect(seen).toEqual([{ location: 'Paris' }])
    expect(forecast).toMatchObject({ temperature: 21 })
    expect(forecast.summary).toContain('get_weather returned temperature 21')
    expect(sim.responses).toHaveLength(2)
  })

  it('[bad-args]: the tool gets the error back as its output, the model calls again with valid arguments, then answers', async () => {
    const sim = await simulator()
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey })
    const calls: unknown[] = []
    const handlers = {
      get_weather: (args: { location?: unknown }) => {
        calls.push(args)
        return typeof args.location === 'string' ? { temperature: 18 } : 'Error: location is required'
      },
    }
    const events = await lastValueFrom(runTools$(client, { model: 'gpt-4.1-mini', input: '[bad-args] Use get_weather: weather in Oslo?', tools: [WEATHER] }, handlers).pipe(toArray()))
    expect(calls).toEqual([{}, { location: 'Oslo' }])
    const last = events.filter((e) => e.type === 'response.completed').at(-1) as { response: { output_text: string } }
    expect(last.response.output_text).toContain('get_weather returned temperature 18')
    expect(sim.responses).toHaveLength(3)
  })

  it('[bad-args] with a tool(): its schema refuses the arguments, the error goes back, the model corrects itself, the tool runs once', async () => {
    const sim = await simulator()
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey })
    const cities: string[] = []
    const getWeather = tool({ name: 'get_weather', parameters: v.object({ city: v.string() }), execute: ({ city }) => (cities.push(city), { city, temperature: 21 }) })
    const Plan = v.object({ city: v.string(), advice: v.string() })
    const body = { model: 'gpt-4.1-mini', input: '[bad-args][preamble] Use get_weather for Paris, then advise me.', text: { format: jsonSchemaFormat(Plan, 'plan') } }
    const plan = await lastValueFrom(runTools$(client, body, [getWeather]).pipe(parsedOutput(Plan)))
    expect(cities).toEqual(['Paris'])
    expect(plan).toEqual({ city: 'Paris', advice: 'advice: get_weather returned city Paris and temperature 21' })
    const events = await lastValueFrom(runTools$(client, { ...body, text: undefined }, [getWeather]).pipe(toArray()))
    // Each round's text: the preamble of each call, then the answer; the same words every run.
    const texts = events.filter((e) => e.type === 'response.completed').map((e) => (e as { response: { output_text: string } }).response.output_text)
    expect(texts).toEqual([
      'I will call get_weather to get this right.',
      'That call failed, so let me try get_weather again with corrected arguments.',
      'Here is what I found — get_weather returned city Paris and temperature 21. Anything else?',
    ])
  })
})
