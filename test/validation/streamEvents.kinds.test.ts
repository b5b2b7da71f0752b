import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { isValidationError, type ValidationError } from '../../src/errors/ValidationError.js'
import { compileCheck } from '../../src/validation/fastCheck.js'
import { parseStreamEvent, streamEventSchema } from '../../src/validation/streamEvents.js'

const at = { item_id: 'it_1', output_index: 1 }
const part = { ...at, content_index: 0 }
const response = { id: 'resp_1', object: 'response', created_at: 1, model: 'm', status: 'in_progress', output: [], incomplete_details: null }
const progress = (type: string) => [type, at] as const

/** One valid payload of every event type of the Responses streaming reference, with its required fields. */
const SAMPLES: readonly (readonly [string, Record<string, unknown>])[] = [
  ...['created', 'queued', 'in_progress', 'completed', 'failed', 'incomplete'].map((s) => [`response.${s}`, { response }] as const),
  ['response.output_item.added', { output_index: 0, item: { type: 'function_call', name: 'f', arguments: '', call_id: 'call_1' } }],
  ['response.output_item.done', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] } }],
  ['response.content_part.added', { ...part, part: { type: 'output_text', text: '', annotations: [] } }],
  ['response.content_part.done', { ...part, part: { type: 'reasoning_text', text: 'hm' } }],
  ['response.output_text.delta', { ...part, delta: 'Hi', logprobs: [{ token: 'Hi', logprob: -0.1, top_logprobs: [] }], obfuscation: 'x' }],
  ['response.output_text.done', { ...part, text: 'Hi', logprobs: [] }],
  ['response.output_text.annotation.added', { ...part, annotation_index: 0, annotation: { type: 'url_citation', url: 'https://a.test', start_index: 0, end_index: 2, title: 'A' } }],
  ['response.refusal.delta', { ...part, delta: 'No' }],
  ['response.refusal.done', { ...part, refusal: 'No.' }],
  ['response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } }],
  ['response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text: 'Plan' } }],
  ['response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta: 'Pl' }],
  ['response.reasoning_summary_text.done', { ...at, summary_index: 0, text: 'Plan' }],
  ['response.reasoning_text.delta', { ...part, delta: 'The' }],
  ['response.reasoning_text.done', { ...part, text: 'The user' }],
  ['response.function_call_arguments.delta', { ...at, delta: '{"a"' }],
  ['response.function_call_arguments.done', { ...at, arguments: '{"a":1}' }],
  ['response.custom_tool_call_input.delta', { ...at, delta: 'SELECT' }],
  ['response.custom_tool_call_input.done', { ...at, input: 'SELECT 1' }],
  ['response.mcp_call_arguments.delta', { ...at, delta: '{}' }],
  ['response.mcp_call_arguments.done', { ...at, arguments: '{}' }],
  ...['mcp_call.in_progress', 'mcp_call.completed', 'mcp_call.failed', 'mcp_list_tools.in_progress', 'mcp_list_tools.completed', 'mcp_list_tools.failed'].map((t) => progress(`response.${t}`)),
  ...['file_search_call', 'web_search_call'].flatMap((t) => ['in_progress', 'searching', 'completed'].map((s) => progress(`response.${t}.${s}`))),
  ...['in_progress', 'interpreting', 'completed'].map((s) => progress(`response.code_interpreter_call.${s}`)),
  ['response.code_interpreter_call_code.delta', { ...at, delta: 'print(' }],
  ['response.code_interpreter_call_code.done', { ...at, code: 'print(1)' }],
  ...['in_progress', 'generating', 'completed'].map((s) => progress(`response.image_generation_call.${s}`)),
  ['response.image_generation_call.partial_image', { ...at, partial_image_index: 0, partial_image_b64: 'iVBOR' }],
  ['response.audio.delta', { delta: 'UklG' }],
  ['response.audio.done', {}],
  ['response.audio.transcript.delta', { delta: 'Hel' }],
  ['response.audio.transcript.done', {}],
  ['error', { error: { type: 'server_error', code: null, message: 'Sorry', param: null } }],
]
const events = SAMPLES.map(([type, fields]) => ({ type, sequence_number: 7, ...fields }))
const UNKNOWN = streamEventSchema('rxgate.no-such-event')

function failure(event: unknown): ValidationError | undefined {
  try {
    parseStreamEvent(event)
  } catch (err) {
    expect(isValidationError(err)).toBe(true)
    return err as ValidationError
  }
  return undefined
}

describe('every event type of the streaming reference', () => {
  it('has a schema of its own: 53 types', () => {
    expect(new Set(events.map((e) => e.type)).size).toBe(53)
    for (const event of events) expect(streamEventSchema(event.type), event.type).not.toBe(UNKNOWN)
  })

  it.each(events.map((e) => [e.type, e] as const))('%s: accepted as it came, extra fields kept, not copied', (_, event) => {
    expect(parseStreamEvent(event)).toBe(event)
    const richer = { ...event, copilot_usage: { total_nano_aiu: 1 } }
    expect(parseStreamEvent(richer)).toBe(richer)
    expect(parseStreamEvent({ ...event, sequence_number: undefined })).toBeTruthy()
  })

  it.each(events.filter((e) => Object.keys(e).length > 2 && e.type !== 'error').map((e) => [e.type, e] as const))(
    '%s: refused without each required field, naming it',
    (_, event) => {
      for (const field of Object.keys(event)) {
        if (field === 'type' || field === 'sequence_number' || field === 'logprobs' || field === 'obfuscation') continue
        const err = failure({ ...event, [field]: undefined })
        expect(err?.issues.map((i) => i.path), `${event.type} without ${field}`).toContain(field)
      }
    },
  )

  it('checks every type in place (no valibot copy), the hot deltas included', () => {
    for (const event of events) expect(compileCheck(streamEventSchema(event.type)), event.type).toBeTypeOf('function')
  })

  it('agrees with valibot on broken payloads of every type', () => {
    const odd = [undefined, null, '', 'x', -1, 1.5, Number.NaN, true, [], {}]
    let refused = 0
    for (const event of events) {
      const schema = streamEventSchema(event.type)
      const check = compileCheck(schema)!
      for (const field of Object.keys(event)) {
        for (const value of odd) {
          const broken = { ...event, [field]: value }
          expect(check(broken), `${event.type}.${field} = ${JSON.stringify(value)}`).toBe(v.is(schema, broken))
          if (!v.is(schema, broken)) refused++
        }
      }
    }
    expect(refused).toBeGreaterThan(500)
  })

  it('lets an unknown event type through, typed apart', () => {
    const event = { type: 'response.future_thing.delta', sequence_number: 3, delta: 'x' }
    expect(parseStreamEvent(event)).toBe(event)
  })

  it('refuses a known item or part kind that is malformed, rather than passing it as unknown', () => {
    const [, added] = SAMPLES.find(([t]) => t === 'response.output_item.added')!
    const err = failure({ type: 'response.output_item.added', ...added, item: { type: 'function_call', name: 'f' } })
    expect(err?.issues.map((i) => i.path)).toEqual(['item.arguments'])
    const annotation = failure({ type: 'response.output_text.annotation.added', ...part, annotation_index: 0, annotation: { type: 'url_citation', start_index: 0, end_index: 1 } })
    expect(annotation?.issues.map((i) => i.path)).toEqual(['annotation.url'])
  })
})
