import { map, toArray, type OperatorFunction } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { isResponseFailedError } from '../../src/errors/ResponseFailedError.js'
import { isResponseRefusedError, type ResponseRefusedError } from '../../src/errors/ResponseRefusedError.js'
import { isValidationError, type ValidationError } from '../../src/errors/ValidationError.js'
import { outputText } from '../../src/operators/outputText.js'
import { parsedOutput } from '../../src/operators/parsedOutput.js'
import { refusal } from '../../src/operators/refusal.js'
import { textDeltas } from '../../src/operators/textDeltas.js'
import { toolCalls } from '../../src/operators/toolCalls.js'
import { responses$ } from '../../src/responses$.js'
import { ResponseSchema, type Response } from '../../src/validation/response.js'
import { parseStreamEvent, streamEventSchema, type ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { all, failure, recordedResponse, recording, replayClient, streamOf } from './replay.js'

const STREAMS = [
  'openai-function-call.chunks.txt',
  'openai-refusal.sse',
  'openai-structured-output.sse',
  'openai-web-search.chunks.txt',
  'openai-file-search.sse',
  'openai-image-generation.chunks.txt',
  'openai-mcp-call.sse',
  'openai-mcp-approval.chunks.txt',
  'openai-custom-tool.chunks.txt',
  'github-copilot-reasoning.chunks.txt',
  'openrouter-reasoning-text.sse',
  'openai-error.chunks.txt',
  'openai-error-null-code.chunks.txt',
]
const OBJECTS = ['openai-structured-output.json', 'openai-code-interpreter.json', 'openai-file-search.json']
const UNKNOWN = streamEventSchema('rxgate.no-such-event')
const body = { model: 'gpt-test', input: 'replayed', stream: true } as const

describe('real recorded streams: no payload is rejected', () => {
  it.each(STREAMS)('%s: every event has a schema of its type, passes it, and is not copied', (name) => {
    for (const event of recording(name).events) {
      const schema = streamEventSchema(String(event.type))
      expect(schema, String(event.type)).not.toBe(UNKNOWN)
      expect(v.safeParse(schema, event).issues, String(event.type)).toBeUndefined()
      // The derived check accepts it in place: the event is the payload itself.
      expect(parseStreamEvent(event)).toBe(event)
    }
  })

  it.each(OBJECTS)('%s: the Response passes its schema as it is', (name) => {
    const response = recordedResponse(name)
    expect(v.safeParse(ResponseSchema, response).issues).toBeUndefined()
    expect(v.parse(ResponseSchema, response)).toEqual(response)
  })

  it.each(STREAMS.filter((name) => !name.startsWith('openai-error')))('%s: replays through responses$ to the end, every event emitted', async (name) => {
    const events = await all(responses$(streamOf(name), body))
    expect(events).toEqual(recording(name).events)
  })

  it.each([
    ['openai-error.chunks.txt', 'insufficient_quota', 'resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424'],
    ['openai-error-null-code.chunks.txt', undefined, undefined],
  ])('%s: the error event ends the stream in ResponseFailedError, not ValidationError', async (name, code, responseId) => {
    const err = await failure(responses$(streamOf(name), body))
    expect(isResponseFailedError(err), String(err)).toBe(true)
    expect(err).toMatchObject({ code, responseId })
  })
})

describe('real recorded streams: the operators give the recorded values', () => {
  it('function call (gpt-5.1): toolCalls() parses the call; outputText() is "" (no text, no refusal)', async () => {
    expect(await all(responses$(streamOf('openai-function-call.chunks.txt'), body).pipe(toolCalls()))).toEqual([
      { name: 'get_weather', callId: 'call_2FQdm3Br7Qb35YUBSkDR7kue', arguments: { city: 'Beijing' }, itemId: 'fc_0775572d10a16b66006a8d8528e8a887d2a32ef76463d40c98' },
    ])
    expect(await all(responses$(streamOf('openai-function-call.chunks.txt'), body).pipe(outputText()))).toEqual([''])
  })

  it('function call: the same call from the final Response alone', async () => {
    const completed = recording('openai-function-call.chunks.txt').events.at(-1)!.response as Record<string, unknown>
    const client = replayClient(JSON.stringify(completed), 'application/json')
    const calls = await all(responses$(client, { model: 'gpt-test', input: 'x' }).pipe(toolCalls()))
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Beijing' }]])
  })

  it('function call with its arguments cut short: ValidationError naming arguments, with the raw text', async () => {
    const events = recording('openai-function-call.chunks.txt').events.map((e) =>
      e.type === 'response.output_item.done' ? { ...e, item: { ...(e.item as object), arguments: '{"city":"Bei' } } : e,
    )
    const client = replayClient(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), 'text/event-stream')
    const err = (await failure(responses$(client, body).pipe(toolCalls()))) as ValidationError
    expect(isValidationError(err)).toBe(true)
    expect(err.issues.map((i) => i.path)).toEqual(['arguments'])
    expect(err.payload).toBe('{"city":"Bei')
  })

  it('refusal (gpt-4o): refusal() emits the deltas; outputText() and parsedOutput() end in ResponseRefusedError', async () => {
    const pieces = await all(responses$(streamOf('openai-refusal.sse'), body).pipe(refusal()))
    expect(pieces).toEqual(["I'm", ' sorry', ',', ' I', " can't", ' assist', ' with', ' that', '.'])
    const reads = [outputText(), parsedOutput(v.object({ instructions: v.string() }))] as OperatorFunction<ResponseStreamEvent, unknown>[]
    for (const read of reads) {
      const err = (await failure(responses$(streamOf('openai-refusal.sse'), body).pipe(read))) as ResponseRefusedError
      expect(isResponseRefusedError(err)).toBe(true)
      expect(err.refusal).toBe("I'm sorry, I can't assist with that.")
      expect(err.responseId).toBe('resp_0edcfeff84266d190068f803588fc88190a9de15406446f52d')
    }
  })

  it('refusal from the final Response alone: refusal() gives it whole, outputText() refuses', async () => {
    const completed = recording('openai-refusal.sse').events.at(-1)!.response
    const client = () => replayClient(JSON.stringify(completed), 'application/json')
    expect(await all(responses$(client(), { model: 'gpt-test', input: 'x' }).pipe(refusal()))).toEqual(["I'm sorry, I can't assist with that."])
    expect(isResponseRefusedError(await failure(responses$(client(), { model: 'gpt-test', input: 'x' }).pipe(outputText())))).toBe(true)
  })

  it('structured output (gpt-4o stream): parsedOutput() gives the typed, validated object', async () => {
    const Book = v.object({ title: v.string(), author: v.object({ first_name: v.string(), last_name: v.string() }), rating: v.pipe(v.number(), v.integer()) })
    const [book] = await all(responses$(streamOf('openai-structured-output.sse'), body).pipe(parsedOutput(Book)))
    expect(book).toEqual({ title: 'THE NAME OF THE WIND', author: { first_name: 'Patrick', last_name: 'Rothfuss' }, rating: 7 })
    const err = (await failure(responses$(streamOf('openai-structured-output.sse'), body).pipe(parsedOutput(v.object({ ...Book.entries, rating: v.literal(5) }))))) as ValidationError
    expect(err.issues.map((i) => i.path)).toEqual(['rating'])
  })

  it('structured output (gpt-4o Response): parsedOutput() reads the message text', async () => {
    const MathReasoning = v.object({ steps: v.array(v.object({ explanation: v.string(), output: v.string() })), final_answer: v.string() })
    const client = replayClient(JSON.stringify(recordedResponse('openai-structured-output.json')), 'application/json')
    const [answer] = await all(responses$(client, { model: 'gpt-test', input: 'x' }).pipe(parsedOutput(MathReasoning)))
    expect(answer!.final_answer).toBe('x = -\\frac{15}{4}')
    expect(answer!.steps).toHaveLength(6)
  })

  it('web search (gpt-5-nano): the searches, the annotations and the text, typed', async () => {
    const events = await all(responses$(streamOf('openai-web-search.chunks.txt'), body))
    const searches = events.flatMap((e) => (e.type === 'response.output_item.done' && e.item.type === 'web_search_call' ? [e.item.action?.query ?? null] : []))
    expect(searches).toEqual(['Berlin news today', null, null, null])
    const cited = events.flatMap((e) => (e.type === 'response.output_text.annotation.added' && e.annotation.type === 'url_citation' ? [e.annotation.url] : []))
    expect(cited).toHaveLength(6)
    const done = events.find((e) => e.type === 'response.output_text.done')
    const [text] = await all(responses$(streamOf('openai-web-search.chunks.txt'), body).pipe(outputText()))
    expect(done?.type === 'response.output_text.done' && done.text).toBe(text)
    expect(text).toMatch(/^Here’s what’s notable in Berlin today/)
  })

  it('reasoning summary (GitHub Copilot): summary text with its summary_index; the answer text', async () => {
    const events = await all(responses$(streamOf('github-copilot-reasoning.chunks.txt'), body))
    const summary = events.flatMap((e) => (e.type === 'response.reasoning_summary_text.done' ? [[e.summary_index, e.text]] : []))
    expect(summary).toEqual([[0, '**Counting character occurrences**']])
    const [text] = await all(responses$(streamOf('github-copilot-reasoning.chunks.txt'), body).pipe(outputText()))
    expect(text).toBe('There are **3** letter **“r”**s in **“strawberry.”**\n\nBreakdown: **s t r a w b e r r y**  \nYou can see **r** at positions **3, 8, and 9**.')
  })

  it('reasoning text (OpenRouter): the reasoning deltas join to the recorded text; text "4" despite output_text ""', async () => {
    const events = await all(responses$(streamOf('openrouter-reasoning-text.sse'), body))
    const reasoning = events.flatMap((e) => (e.type === 'response.reasoning_text.delta' ? [e.delta] : [])).join('')
    expect(reasoning).toBe('The user asks: "What is 2+2?" They expect a straightforward answer: 4. Just answer 4.')
    expect(await all(responses$(streamOf('openrouter-reasoning-text.sse'), body).pipe(textDeltas(), toArray(), map((p) => p.join(''))))).toEqual(['4'])
  })

  it('file search, MCP, image generation and custom tools: their items and events, typed', async () => {
    const items = async (name: string) => (await all(responses$(streamOf(name), body))).flatMap((e) => (e.type === 'response.output_item.done' ? [e.item] : []))
    const fileSearch = (await items('openai-file-search.sse')).find((i) => i.type === 'file_search_call')
    expect(fileSearch?.type === 'file_search_call' && fileSearch.queries).toEqual(['What is the capital of France?'])
    const mcp = await items('openai-mcp-call.sse')
    const call = mcp.find((i) => i.type === 'mcp_call')
    expect(call?.type === 'mcp_call' && [call.name, call.output]).toEqual(['get_my_games', '["Lies of P", "Bloodborne", "Sekiro"]'])
    const approval = (await items('openai-mcp-approval.chunks.txt')).find((i) => i.type === 'mcp_approval_request')
    expect(approval?.type === 'mcp_approval_request' && approval.name).toBe('create_short_url')
    const image = await all(responses$(streamOf('openai-image-generation.chunks.txt'), body))
    const partial = image.find((e) => e.type === 'response.image_generation_call.partial_image')
    expect(partial?.type === 'response.image_generation_call.partial_image' && partial.partial_image_index).toBe(0)
    const custom = await all(responses$(streamOf('openai-custom-tool.chunks.txt'), body))
    expect(custom.flatMap((e) => (e.type === 'response.custom_tool_call_input.delta' ? [e.delta] : [])).join('')).toBe('SELECT * FROM users WHERE age > 25')
    expect(await all(responses$(streamOf('openai-custom-tool.chunks.txt'), body).pipe(toolCalls()))).toEqual([]) // not a function call
  })

  it('code interpreter and file search Responses: their tool items, typed', () => {
    const code = v.parse(ResponseSchema, recordedResponse('openai-code-interpreter.json')) as Response
    const logs = (code.output ?? []).flatMap((i) => (i.type === 'code_interpreter_call' ? (i.outputs ?? []).map((o) => o.logs) : []))
    expect(logs).toEqual(['(10000, 70024)', "(21680, '/mnt/data/two_dice_sums_10000.txt')"])
    const files = v.parse(ResponseSchema, recordedResponse('openai-file-search.json')) as Response
    const results = (files.output ?? []).flatMap((i) => (i.type === 'file_search_call' ? (i.results ?? []).map((r) => r.filename) : []))
    expect(results).toEqual(['ai.pdf'])
  })
})
