import { lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { openTelemetry, type OpenTelemetryOptions } from '../../src/otel/index.js'
import { responses$ } from '../../src/responses$.js'
import { textToVideo$ } from '../../src/tasks$.js'
import type { Response } from '../../src/validation/response.js'
import { fragmentsOf } from '../helpers/secrets.js'
import { waitFor } from '../helpers/server.js'
import { cannedResponse, exported, only, OTEL_KEY, QUICK_POLLS, quickSim, recorder, scriptedServer } from './helpers.js'

const PROMPT = 'Tell me about kites, marker-7f3a'
const SYSTEM = 'Answer as a sailor, marker-91bc'

/** A chat, a stream and a task, with `options`; what they answered and every span made. */
async function runAll(options: OpenTelemetryOptions) {
  const otel = recorder()
  const sim = await quickSim()
  const client = createClient({ baseUrl: sim.url, apiKey: OTEL_KEY, ...QUICK_POLLS, telemetry: openTelemetry({ tracer: otel.tracer, meter: otel.meter, ...options }) })
  const single: Response = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: PROMPT, instructions: SYSTEM }))
  await lastValueFrom(responses$(client, { model: 'gpt-4.1-nano', input: [{ role: 'user', content: [{ type: 'input_text', text: PROMPT }] }], stream: true }))
  const events: TaskEvent[] = await lastValueFrom(textToVideo$(client, { prompt: PROMPT }).pipe(toArray()))
  await waitFor(() => otel.spans().filter((s) => s.name === 'chat gpt-4.1-nano').length === 1, 2_000, 'the stream span')
  const completed = events.at(-1) as Extract<TaskEvent, { type: 'completed' }>
  return { ...otel, single, urls: completed.urls }
}

describe('openTelemetry: prompts and outputs', () => {
  it('are recorded nowhere by default: no message attributes, no prompt, no output text, no result URL', async () => {
    const { spans, single, urls } = await runAll({})
    expect(spans().map((s) => s.name)).toEqual(expect.arrayContaining(['chat gpt-4.1-mini', 'chat gpt-4.1-nano', 'generate_content t2v-spark']))
    const json = exported(spans())
    for (const name of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions']) expect(json).not.toContain(name)
    for (const text of ['marker-7f3a', 'marker-91bc', single.output_text!.slice(0, 20), urls[0]!]) expect(json).not.toContain(text)
  })

  it('with captureContent: true, are recorded as the GenAI message attributes (JSON strings)', async () => {
    const { spans, single, urls } = await runAll({ captureContent: true })
    const chat = only(spans(), 'chat gpt-4.1-mini').attributes
    expect(JSON.parse(String(chat['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: SYSTEM }])
    expect(JSON.parse(String(chat['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: PROMPT }] }])
    expect(JSON.parse(String(chat['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: single.output_text }], finish_reason: 'stop' }])
    const stream = only(spans(), 'chat gpt-4.1-nano').attributes
    expect(JSON.parse(String(stream['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: PROMPT }] }])
    expect(JSON.parse(String(stream['gen_ai.output.messages']))[0].parts[0]).toEqual({ type: 'text', content: expect.any(String) })
    const task = only(spans(), 'generate_content t2v-spark').attributes
    expect(JSON.parse(String(task['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: PROMPT }] }])
    // A result URL is recorded without its query: the signature that lets anyone fetch it stays out.
    const withoutQuery = (url: string) => url.replace(/\?.*$/s, '')
    expect(urls[0]).toContain('?')
    expect(JSON.parse(String(task['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: urls.map((url) => ({ type: 'uri', modality: 'video', uri: withoutQuery(url) })), finish_reason: 'stop' }])
  })
})

describe('openTelemetry: the API key', () => {
  it('appears in no span, event, status or metric, even captured and echoed by the gateway', async () => {
    const { tracer, meter, spans, collect } = recorder()
    const echoed = { ...cannedResponse(`your key is ${OTEL_KEY}`), id: `resp_${OTEL_KEY}`, model: OTEL_KEY }
    const server = await scriptedServer([
      { status: 200, body: echoed },
      { status: 400, body: { error: { message: `bad key ${OTEL_KEY}` } } },
    ])
    const client = createClient({ baseUrl: server.url, apiKey: OTEL_KEY, telemetry: openTelemetry({ tracer, meter, captureContent: true }) })
    await lastValueFrom(responses$(client, { model: `m-${OTEL_KEY}`, input: `the key: ${OTEL_KEY}`, instructions: OTEL_KEY }))
    await expect(lastValueFrom(responses$(client, { model: 'm', input: 'again' }))).rejects.toMatchObject({ name: 'HttpError' })
    const everything = exported(spans()) + JSON.stringify(await collect())
    // The test sees what it means to: the content was recorded, the key masked in it.
    expect(everything).toContain('your key is [redacted]')
    expect(everything).toContain('bad key [redacted]')
    const leaked = fragmentsOf(OTEL_KEY).find((f) => everything.includes(f))
    expect(leaked, `"${leaked}" of the key was exported`).toBeUndefined()
  })
})
