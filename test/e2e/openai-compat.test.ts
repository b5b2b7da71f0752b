import OpenAI from 'openai'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { outputText } from '../../src/index.js'
import type { Simulator, SimulatorOptions } from '../../src/sim/index.js'
import { gatewayFor, MODEL, requestsTo, simulator } from './helpers.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'

/** The official client, pointed at the simulator, without retries so that no failure hides. */
const openaiFor = (sim: Simulator) => new OpenAI({ baseURL: `${sim.url}/vendors/vendor-a/v1`, apiKey: sim.apiKey, maxRetries: 0, timeout: 10_000 })

const SIMULATORS: [string, SimulatorOptions][] = [
  ['plain', {}],
  ['with quirks (ping, crlf, [DONE])', { quirks: { ping: true, crlf: true, done: true } }],
  ['with openai usage and the quirks', { usageShape: 'openai', quirks: { ping: true, crlf: true, done: true } }],
]

describe.each(SIMULATORS)('the official openai package against the simulator, %s', (_, simOptions) => {
  it('consumes the stream to the end with the same text as rxgate', async () => {
    const sim = await simulator(simOptions)
    const client = openaiFor(sim)
    const input = 'A lighthouse at dawn'
    const stream = await client.responses.create({ model: MODEL, input, stream: true })
    const types: string[] = []
    const seq: number[] = []
    let text = ''
    let final: OpenAI.Responses.Response | undefined
    for await (const event of stream) {
      types.push(event.type)
      seq.push(event.sequence_number)
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') final = event.response
    }
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
    expect(seq).toEqual(seq.map((__, i) => i))
    expect(final!.status).toBe('completed')

    const rx = await firstValueFrom(gatewayFor(sim).responses$({ model: MODEL, input, stream: true }).pipe(outputText()))
    expect(text).toBe(rx)
    expect(final!.output_text ?? text).toBe(rx)
    expect(requestsTo(sim, 'POST', RESPONSES).every((r) => r.status === 200 && !r.aborted)).toBe(true)
  })

  it('reads the single-object reply with the same text as rxgate', async () => {
    const sim = await simulator(simOptions)
    const client = openaiFor(sim)
    const input = 'A fox crossing a frozen river'
    const response = await client.responses.create({ model: MODEL, input })
    expect(response.object).toBe('response')
    expect(response.status).toBe('completed')
    const rx = await firstValueFrom(gatewayFor(sim).responses$({ model: MODEL, input }).pipe(outputText()))
    expect(response.output_text).toBe(rx)
    expect(response.output_text.length).toBeGreaterThan(20)
    if (simOptions.usageShape === 'openai') {
      expect(response.usage!.input_tokens).toBe(6)
      expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens)
    }
  })

  it('retrieves, streams back with starting_after, and cancels background responses like rxgate', async () => {
    const sim = await simulator({ ...simOptions, timeScale: { pendingMs: 30_000, processingMs: 150_000 } })
    const client = openaiFor(sim)
    const created = await client.responses.create({ model: MODEL, input: 'later', background: true, store: true })
    expect(created.status).toBe('queued')
    const read = await client.responses.retrieve(created.id)
    expect(read.status).toBe('queued')
    const replay = await client.responses.retrieve(created.id, { stream: true, starting_after: 1 })
    const seq: number[] = []
    for await (const event of replay) seq.push(event.sequence_number)
    expect(seq[0]).toBe(2)
    const cancelled = await client.responses.cancel(created.id)
    expect(cancelled.status).toBe('cancelled')
    const rx = await firstValueFrom(gatewayFor(sim).retrieveResponse$(created.id))
    expect(rx.status).toBe('cancelled')
  })

  it('reports a rejected request as the matching APIError', async () => {
    const sim = await simulator(simOptions)
    const wrong = new OpenAI({ baseURL: `${sim.url}/vendors/vendor-a/v1`, apiKey: 'sk-not-it', maxRetries: 0 })
    await expect(wrong.responses.create({ model: MODEL, input: 'x' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
    await expect(openaiFor(sim).responses.create({ model: MODEL, input: 'x', temperature: 3 })).rejects.toMatchObject({
      status: 400,
      param: 'temperature',
    })
  })
})
