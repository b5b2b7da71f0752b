import { describe, expect, it } from 'vitest'
import { call, frames, json, RESPONSES, simulator, stream, WEATHER } from './helpers.js'
import { problems } from './schemaCheck.js'
import { wellFormed } from './wellFormed.js'

const TIME = { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } }

describe('simulator: function calls and structured output', () => {
  it('calls a function the input names: a function_call item with valid arguments, streamed in pieces', async () => {
    const sim = await simulator()
    const events = await stream(sim, { input: 'What is the weather in Paris? Use get_weather.', tools: [WEATHER, TIME] })
    const final = wellFormed(events)
    expect(final.output).toHaveLength(1)
    const [item] = final.output
    expect(item).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' })
    expect(item.id).toMatch(/^fc_/)
    expect(item.call_id).toMatch(/^call_/)
    const args = JSON.parse(item.arguments)
    expect(problems(WEATHER.parameters, args)).toEqual([])
    expect(args.location).toBe('Paris')
    expect(events.filter((f) => f.event === 'response.function_call_arguments.delta').length).toBeGreaterThan(2)
    const types = events.map((f) => f.event)
    expect(types.indexOf('response.output_item.added')).toBeLessThan(types.indexOf('response.function_call_arguments.delta'))
    expect(types.indexOf('response.function_call_arguments.done')).toBeLessThan(types.indexOf('response.output_item.done'))
    expect(final.output_text).toBe('')
  })

  it('calls on tool_choice required or a named function, never on none; one call only without parallel_tool_calls', async () => {
    const sim = await simulator()
    const output = async (extra: Record<string, unknown>) => (await json(sim, RESPONSES, { body: { model: 'm', tools: [WEATHER, TIME], input: 'Plan my day', ...extra } })).body.output
    expect((await output({ tool_choice: 'required' })).map((i: any) => i.name)).toEqual(['get_weather'])
    expect((await output({ tool_choice: { type: 'function', name: 'get_time' } })).map((i: any) => i.name)).toEqual(['get_time'])
    expect((await output({ tool_choice: 'none', input: 'call get_weather' }))[0].type).toBe('message')
    expect((await output({}))[0].type).toBe('message')
    expect((await output({ input: 'use get_weather and get_time' })).map((i: any) => i.name)).toEqual(['get_weather', 'get_time'])
    expect((await output({ input: 'use get_weather and get_time', parallel_tool_calls: false })).map((i: any) => i.name)).toEqual(['get_weather'])
  })

  it('answers with the function outputs given back for its calls (previous_response_id, or the calls in the input)', async () => {
    const sim = await simulator()
    const first = await json(sim, RESPONSES, { body: { model: 'm', input: 'Weather in Oslo? get_weather please', tools: [WEATHER] } })
    const call = first.body.output[0]
    const output = JSON.stringify({ temperature: 21, unit: 'celsius', sky: 'clear' })
    const followUp = { model: 'm', tools: [WEATHER], previous_response_id: first.body.id, input: [{ type: 'function_call_output', call_id: call.call_id, output }] }
    const final = wellFormed(await stream(sim, followUp))
    expect(final.output[0].type).toBe('message')
    expect(final.output_text).toContain('get_weather')
    expect(final.output_text).toContain('temperature 21')
    expect(final.output_text).toContain('sky clear')
    const manual = await json(sim, RESPONSES, {
      body: { model: 'm', input: [{ type: 'function_call', call_id: 'call_1', name: 'get_time', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: '"12:30"' }] },
    })
    expect(manual.body.output_text).toContain('get_time returned “12:30”')
  })

  it('writes JSON valid against a json_schema text format, streamed as deltas', async () => {
    const sim = await simulator()
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 40 },
        scenes: { type: 'array', items: { $ref: '#/$defs/scene' }, minItems: 2, maxItems: 3 },
        mood: { enum: ['calm', 'tense'] },
        rating: { type: 'number', minimum: 0, maximum: 5 },
        draft: { type: 'boolean' },
        tags: { type: ['array', 'null'], items: { type: 'string', minLength: 3 } },
        note: { anyOf: [{ type: 'null' }, { type: 'string', const: 'fixed' }] },
      },
      required: ['title', 'scenes', 'mood', 'rating', 'draft', 'tags', 'note'],
      additionalProperties: false,
      $defs: { scene: { type: 'object', properties: { seconds: { type: 'integer', exclusiveMinimum: 0, maximum: 10 }, shot: { type: 'string' } }, required: ['seconds', 'shot'] } },
    }
    const body = { input: 'A short video about: a lighthouse', text: { format: { type: 'json_schema', name: 'storyboard', schema, strict: true } } }
    const events = await stream(sim, body)
    const final = wellFormed(events)
    const value = JSON.parse(final.output_text)
    expect(problems(schema, value)).toEqual([])
    expect(value.title).toContain('lighthouse')
    expect(events.filter((f) => f.event === 'response.output_text.delta').length).toBeGreaterThan(5)
    const object = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi', text: { format: { type: 'json_object' } } } })
    expect(JSON.parse(object.body.output_text)).toEqual({ answer: expect.any(String) })
  })

  it('keeps background, replay and cancel working for calls and reasoning', async () => {
    const sim = await simulator({ timeScale: { pendingMs: 60_000, processingMs: 60_000 } })
    const live = await stream(sim, { model: 'o3', input: 'use get_weather for Rome', tools: [WEATHER], background: true })
    const final = wellFormed(live)
    expect(final.output.map((i: any) => i.type)).toEqual(['reasoning', 'function_call'])
    const id = final.id
    expect((await json(sim, `${RESPONSES}/${id}`)).body).toEqual(final) // the stream has finished it, whatever the clock says
    const replay = frames(await (await call(sim, `${RESPONSES}/${id}?stream=true&starting_after=4`)).text())
    expect(replay.map((f) => f.data)).toEqual(live.slice(5).map((f) => f.data))
    sim.advanceTime(120_000)
    expect((await json(sim, `${RESPONSES}/${id}`)).body.output).toEqual(final.output)
    const other = await json(sim, RESPONSES, { body: { model: 'o3', input: 'use get_weather', tools: [WEATHER], background: true } })
    expect((await json(sim, `${RESPONSES}/${other.body.id}/cancel`, { method: 'POST' })).body).toMatchObject({ status: 'cancelled', output: [] })
  })
})
