import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/sim/index.js'
import { json, RESPONSES, simulator, stream, type Frame, WEATHER } from './helpers.js'
import { problems } from './schemaCheck.js'
import { wellFormed } from './wellFormed.js'

// What real models do inside a tool loop, which a loop must survive: text
// before a call, a structured answer after tool outputs, and arguments that
// break the schema, corrected once the tool reports the error.

const FORECAST = {
  type: 'object',
  properties: { location: { type: 'string' }, temperature: { type: 'number' }, sky: { type: 'string', enum: ['clear', 'cloudy'] }, summary: { type: 'string' } },
  required: ['location', 'temperature', 'sky', 'summary'],
  additionalProperties: false,
}
const FORMAT = { format: { type: 'json_schema', name: 'forecast', schema: FORECAST, strict: true } }

/** The event types, and for item events the item type: `output_item.added:message`. */
const shape = (events: readonly Frame[]) =>
  events.map(({ json: e }) => (e.type.startsWith('response.output_item.') ? `${e.type.slice(9)}:${e.item.type}@${e.output_index}` : e.type.slice(9)))

/** Collapses runs of one delta type into one entry, so the order reads at a glance. */
const runs = (types: readonly string[]) => types.filter((type, i) => !(type.endsWith('.delta') && types[i - 1] === type))

/** The follow-up a tool loop sends: the outputs, continuing the response. */
const followUp = (previous: any, outputs: string[], extra: Record<string, unknown> = {}) => ({
  previous_response_id: previous.id,
  tools: [WEATHER],
  input: previous.output.filter((i: any) => i.type === 'function_call').map((call: any, n: number) => ({ type: 'function_call_output', call_id: call.call_id, output: outputs[n] })),
  ...extra,
})

const streamed = async (sim: Simulator, body: Record<string, unknown>) => {
  const events = await stream(sim, body)
  return { events, final: wellFormed(events) }
}

describe('simulator: a message before the function calls', () => {
  it('with [preamble], streams a message item, then the call, in one response: the final output holds both, output_text the message', async () => {
    const sim = await simulator()
    const { events, final } = await streamed(sim, { input: '[preamble] What is the weather in Paris? Use get_weather.', tools: [WEATHER] })
    expect(runs(shape(events))).toEqual([
      'created',
      'in_progress',
      'output_item.added:message@0',
      'content_part.added',
      'output_text.delta',
      'output_text.done',
      'content_part.done',
      'output_item.done:message@0',
      'output_item.added:function_call@1',
      'function_call_arguments.delta',
      'function_call_arguments.done',
      'output_item.done:function_call@1',
      'completed',
    ])
    expect(final.output.map((i: any) => i.type)).toEqual(['message', 'function_call'])
    const deltas = events.filter((f) => f.event === 'response.output_text.delta').map((f) => f.json.delta)
    expect(deltas.length).toBeGreaterThan(2)
    expect(final.output_text).toBe(deltas.join(''))
    expect(final.output_text).toMatch(/get_weather/)
    // The marker is how the test asks, not what the model is asked: the arguments never hold it.
    expect(JSON.parse(final.output[1].arguments)).toEqual({ location: 'Paris', unit: 'celsius', days: 4 })
    // The same request gets the same words.
    const again = await json(sim, RESPONSES, { body: { model: 'gpt-4o', input: '[preamble] What is the weather in Paris? Use get_weather.', tools: [WEATHER] } })
    expect(again.body.output_text).toBe(final.output_text)
    expect(again.body.output.map((i: any) => i.type)).toEqual(['message', 'function_call'])
  })

  it('puts a reasoning model’s summary first, then the message, then the calls, numbered in order', async () => {
    const sim = await simulator()
    const { final } = await streamed(sim, { model: 'o3', input: 'use get_weather for Rome [preamble]', tools: [WEATHER] })
    expect(final.output.map((i: any) => i.type)).toEqual(['reasoning', 'message', 'function_call'])
  })

  it('holds for the whole conversation: the follow-up that answers has no message before it, only its answer', async () => {
    const sim = await simulator()
    const { final: first } = await streamed(sim, { input: '[preamble] Weather in Oslo? get_weather please', tools: [WEATHER] })
    const { final } = await streamed(sim, followUp(first, ['{"temperature":21}']))
    expect(final.output.map((i: any) => i.type)).toEqual(['message'])
    expect(final.output_text).toMatch(/^Here is what I found — get_weather returned temperature 21/)
  })

  it('with the preamble quirk, does it for every response that calls tools; without either, a call comes alone', async () => {
    const quirky = await simulator({ quirks: { preamble: true } })
    const body = { model: 'gpt-4o', input: 'Weather in Lima? use get_weather', tools: [WEATHER] }
    expect((await json(quirky, RESPONSES, { body })).body.output.map((i: any) => i.type)).toEqual(['message', 'function_call'])
    const plain = await simulator()
    expect((await json(plain, RESPONSES, { body })).body.output.map((i: any) => i.type)).toEqual(['function_call'])
  })
})

describe('simulator: a json_schema format after tool outputs', () => {
  it('answers the follow-up with JSON valid against the schema, built from the outputs, streamed as text deltas', async () => {
    const sim = await simulator()
    const { final: first } = await streamed(sim, { input: 'Use get_weather: weather in Paris?', tools: [WEATHER], text: FORMAT })
    expect(first.output.map((i: any) => i.type)).toEqual(['function_call'])
    const { events, final } = await streamed(sim, followUp(first, ['{"temperature":21,"sky":"clear","wind":"none"}'], { text: FORMAT }))
    expect(final.output.map((i: any) => i.type)).toEqual(['message'])
    const value = JSON.parse(final.output_text)
    expect(problems(FORECAST, value)).toEqual([])
    expect(value).toMatchObject({ temperature: 21, sky: 'clear' })
    expect(value.summary).toContain('get_weather returned temperature 21')
    expect(events.filter((f) => f.event === 'response.output_text.delta').length).toBeGreaterThan(5)
  })

  it('keeps to the schema when an output does not fit a field (a number out of bounds, a word not in the enum)', async () => {
    const sim = await simulator()
    const schema = { type: 'object', properties: { temperature: { type: 'integer', maximum: 50 }, sky: { enum: ['clear', 'cloudy'] } }, required: ['temperature', 'sky'] }
    const first = (await json(sim, RESPONSES, { body: { model: 'm', input: 'get_weather in Rome', tools: [WEATHER] } })).body
    const reply = await json(sim, RESPONSES, { body: { model: 'm', ...followUp(first, ['{"temperature":99.5,"sky":"stormy"}']), text: { format: { type: 'json_schema', name: 'w', schema } } } })
    const value = JSON.parse(reply.body.output_text)
    expect(problems(schema, value)).toEqual([])
    expect(value.temperature).not.toBe(99.5)
  })
})

describe('simulator: bad arguments, then a correction', () => {
  const ERROR = 'Error: the arguments of get_weather are invalid: location: is required'

  it('with [bad-args], breaks the schema on the first call; given the error, calls again with valid arguments; then answers', async () => {
    const sim = await simulator()
    const { events, final: first } = await streamed(sim, { input: '[bad-args] Weather in Paris? Use get_weather.', tools: [WEATHER] })
    const bad = JSON.parse(first.output[0].arguments)
    expect(problems(WEATHER.parameters, bad)).not.toEqual([])
    expect(bad).toEqual({ unit: 'celsius', days: 4 })
    const done = events.find((f) => f.event === 'response.function_call_arguments.done')!.json
    expect(done.arguments).toBe(first.output[0].arguments)

    const { final: second } = await streamed(sim, followUp(first, [ERROR]))
    expect(second.output.map((i: any) => [i.type, i.name])).toEqual([['function_call', 'get_weather']])
    expect(second.output[0].call_id).not.toBe(first.output[0].call_id)
    const good = JSON.parse(second.output[0].arguments)
    expect(problems(WEATHER.parameters, good)).toEqual([])
    // The arguments follow the user's words, read back along previous_response_id.
    expect(good.location).toBe('Paris')

    const { final: third } = await streamed(sim, followUp(second, ['{"temperature":18}']))
    expect(third.output.map((i: any) => i.type)).toEqual(['message'])
    expect(third.output_text).toContain('get_weather returned temperature 18')
  })

  it('reads an error as text starting with “Error” or a JSON object with an error field; other outputs are answered', async () => {
    const sim = await simulator()
    const first = (await json(sim, RESPONSES, { body: { model: 'm', input: 'get_weather in Rome', tools: [WEATHER] } })).body
    const typeOf = async (output: string) => (await json(sim, RESPONSES, { body: { model: 'm', ...followUp(first, [output]) } })).body.output[0].type
    expect(await typeOf('error: timeout')).toBe('function_call')
    expect(await typeOf('{"error":{"message":"bad unit"}}')).toBe('function_call')
    expect(await typeOf('{"error":null,"temperature":3}')).toBe('message')
    expect(await typeOf('No errors today')).toBe('message')
  })

  it('corrects itself once: an error for the second call of a tool is reported in an answer, never called a third time', async () => {
    const sim = await simulator()
    const first = (await json(sim, RESPONSES, { body: { model: 'm', input: '[bad-args] get_weather in Rome', tools: [WEATHER] } })).body
    const second = (await json(sim, RESPONSES, { body: { model: 'm', ...followUp(first, [ERROR]) } })).body
    expect(second.output[0].type).toBe('function_call')
    const third = (await json(sim, RESPONSES, { body: { model: 'm', ...followUp(second, ['Error: the service is down']) } })).body
    expect(third.output.map((i: any) => i.type)).toEqual(['message'])
    expect(third.output_text).toContain('get_weather returned “Error: the service is down”')
  })

  it('sends valid arguments without the marker, and never calls again with tool_choice none', async () => {
    const sim = await simulator()
    const first = (await json(sim, RESPONSES, { body: { model: 'm', input: 'get_weather in Rome', tools: [WEATHER] } })).body
    expect(problems(WEATHER.parameters, JSON.parse(first.output[0].arguments))).toEqual([])
    const none = (await json(sim, RESPONSES, { body: { model: 'm', ...followUp(first, [ERROR]), tool_choice: 'none' } })).body
    expect(none.output[0].type).toBe('message')
  })

  it('with [preamble] too, says before the second call that it corrects itself', async () => {
    const sim = await simulator()
    const first = (await json(sim, RESPONSES, { body: { model: 'm', input: '[bad-args][preamble] get_weather in Rome', tools: [WEATHER] } })).body
    const { final } = await streamed(sim, followUp(first, [ERROR]))
    expect(final.output.map((i: any) => i.type)).toEqual(['message', 'function_call'])
    expect(final.output_text).toBe('That call failed, so let me try get_weather again with corrected arguments.')
  })
})
