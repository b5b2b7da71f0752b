import * as v from 'valibot'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ValidationError } from '../../src/errors/ValidationError.js'
import type { Annotation, ContentPart, SummaryTextPart } from '../../src/validation/contentParts.js'
import type { UnknownType } from '../../src/validation/otherType.js'
import type { OutputItem } from '../../src/validation/outputItems.js'
import type { Response } from '../../src/validation/response.js'
import type { KnownEventType, StreamEvent } from '../../src/validation/streamEvents.js'

// The catalog of everything a Responses stream carries that this version
// models: every event type, output item, content part and annotation, each
// with a sample as the OpenAI Responses API sends it. The samples are typed by
// the library's own types, so a kind without a sample (or a sample of a kind
// the library does not declare) does not compile. Unknown kinds pass through
// for forward compatibility, so the tests below also prove each kind is really
// checked: a modelled kind that lost its schema would wave anything through.

type StreamEvents = typeof import('../../src/validation/streamEvents.js')
let parseStreamEvent: StreamEvents['parseStreamEvent']
let streamEventSchema: StreamEvents['streamEventSchema']
let TOOL_ITEM_TYPES: (typeof import('../../src/validation/toolItems.js'))['TOOL_ITEM_TYPES']
let isValidationError: (typeof import('../../src/errors/ValidationError.js'))['isValidationError']

// The schemas are built when their modules load: each test loads its own copy,
// so it also proves that the catalog it checks loads.
beforeEach(async () => {
  vi.resetModules()
  ;({ parseStreamEvent, streamEventSchema } = await import('../../src/validation/streamEvents.js'))
  ;({ TOOL_ITEM_TYPES } = await import('../../src/validation/toolItems.js'))
  ;({ isValidationError } = await import('../../src/errors/ValidationError.js'))
})

/** The paths of the issues `parseStreamEvent` reports, or `[]` when it accepts the payload. */
function refusal(payload: unknown): string[] {
  try {
    parseStreamEvent(payload)
  } catch (err) {
    expect(isValidationError(err), String(err)).toBe(true)
    return (err as ValidationError).issues.map((issue) => issue.path)
  }
  return []
}

const without = (value: object, field: string) => ({ ...value, [field]: undefined })
/** A value of the wrong JSON type for `value`: a number where a string belongs, a string for anything else. */
const mistyped = (value: unknown): unknown => (typeof value === 'string' ? 42 : typeof value === 'boolean' ? 'yes' : String(value))

// ---------------------------------------------------------------------------
// Stream events

const item = { item_id: 'msg_68c1f0a2e5b48190a4', output_index: 1 }
const part = { ...item, content_index: 0 }
const fc = { item_id: 'fc_68c1f0a3b9e08190b7', output_index: 2 }
const tool = (item_id: string) => ({ item_id, output_index: 0 })

const created: Response = {
  id: 'resp_68c1f0a1d0c481909e',
  object: 'response',
  created_at: 1_757_520_801,
  model: 'gpt-5-mini-2025-08-07',
  status: 'in_progress',
  output: [],
  usage: null,
  error: null,
  incomplete_details: null,
}
const answered = (over: Partial<Response>): Response => ({ ...created, ...over })

/** One sample per modelled event type, as a recorded stream has it. Every field but `OPTIONAL` ones is required. */
const EVENTS: { readonly [K in KnownEventType]: StreamEvent<K> } = {
  'response.created': { type: 'response.created', sequence_number: 0, response: created },
  'response.queued': { type: 'response.queued', sequence_number: 0, response: answered({ status: 'queued' }) },
  'response.in_progress': { type: 'response.in_progress', sequence_number: 1, response: created },
  'response.completed': {
    type: 'response.completed',
    sequence_number: 60,
    response: answered({ status: 'completed', output_text: 'Paris.', usage: { input_tokens: 12, output_tokens: 30, total_tokens: 42, output_tokens_details: { reasoning_tokens: 24 } } }),
  },
  'response.failed': { type: 'response.failed', sequence_number: 9, response: answered({ status: 'failed', error: { code: 'server_error', message: 'The model failed to respond.' } }) },
  'response.incomplete': { type: 'response.incomplete', sequence_number: 9, response: answered({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }) },
  'response.output_item.added': { type: 'response.output_item.added', sequence_number: 2, output_index: 1, item: { type: 'message', id: item.item_id, role: 'assistant', status: 'in_progress', content: [] } },
  'response.output_item.done': {
    type: 'response.output_item.done',
    sequence_number: 9,
    output_index: 2,
    item: { type: 'function_call', id: fc.item_id, call_id: 'call_Qx8d2YzU', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
  },
  'response.content_part.added': { type: 'response.content_part.added', sequence_number: 3, ...part, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } },
  'response.content_part.done': { type: 'response.content_part.done', sequence_number: 7, ...part, part: { type: 'output_text', text: 'Paris.', annotations: [] } },
  'response.output_text.delta': { type: 'response.output_text.delta', sequence_number: 4, ...part, delta: 'Par', logprobs: [], obfuscation: 'q8Xz1' },
  'response.output_text.done': { type: 'response.output_text.done', sequence_number: 6, ...part, text: 'Paris.', logprobs: [] },
  'response.output_text.annotation.added': {
    type: 'response.output_text.annotation.added',
    sequence_number: 5,
    ...part,
    annotation_index: 0,
    annotation: { type: 'url_citation', url: 'https://en.wikipedia.org/wiki/Paris', start_index: 0, end_index: 6, title: 'Paris' },
  },
  'response.refusal.delta': { type: 'response.refusal.delta', sequence_number: 4, ...part, delta: "I'm sorry", obfuscation: 'a1' },
  'response.refusal.done': { type: 'response.refusal.done', sequence_number: 5, ...part, refusal: "I'm sorry, I can't help with that." },
  'response.reasoning_summary_part.added': { type: 'response.reasoning_summary_part.added', sequence_number: 3, item_id: 'rs_68c1f0a2', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
  'response.reasoning_summary_part.done': {
    type: 'response.reasoning_summary_part.done',
    sequence_number: 6,
    item_id: 'rs_68c1f0a2',
    output_index: 0,
    summary_index: 0,
    part: { type: 'summary_text', text: '**Finding the capital**' },
  },
  'response.reasoning_summary_text.delta': { type: 'response.reasoning_summary_text.delta', sequence_number: 4, item_id: 'rs_68c1f0a2', output_index: 0, summary_index: 0, delta: '**Finding', obfuscation: 'Zk' },
  'response.reasoning_summary_text.done': { type: 'response.reasoning_summary_text.done', sequence_number: 5, item_id: 'rs_68c1f0a2', output_index: 0, summary_index: 0, text: '**Finding the capital**' },
  'response.reasoning_text.delta': { type: 'response.reasoning_text.delta', sequence_number: 4, item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'The user asks' },
  'response.reasoning_text.done': { type: 'response.reasoning_text.done', sequence_number: 5, item_id: 'rs_1', output_index: 0, content_index: 0, text: 'The user asks for a capital.' },
  'response.function_call_arguments.delta': { type: 'response.function_call_arguments.delta', sequence_number: 4, ...fc, delta: '{"city":', obfuscation: 'Yt0' },
  'response.function_call_arguments.done': { type: 'response.function_call_arguments.done', sequence_number: 8, ...fc, arguments: '{"city":"Paris"}', name: 'get_weather' },
  'response.custom_tool_call_input.delta': { type: 'response.custom_tool_call_input.delta', sequence_number: 4, ...tool('ctc_68c1f0a4'), delta: 'SELECT' },
  'response.custom_tool_call_input.done': { type: 'response.custom_tool_call_input.done', sequence_number: 5, ...tool('ctc_68c1f0a4'), input: 'SELECT count(*) FROM users' },
  'response.mcp_call_arguments.delta': { type: 'response.mcp_call_arguments.delta', sequence_number: 4, ...tool('mcp_68c1f0a5'), delta: '{"repoName":' },
  'response.mcp_call_arguments.done': { type: 'response.mcp_call_arguments.done', sequence_number: 5, ...tool('mcp_68c1f0a5'), arguments: '{"repoName":"openai/codex"}' },
  'response.mcp_call.in_progress': { type: 'response.mcp_call.in_progress', sequence_number: 3, ...tool('mcp_68c1f0a5') },
  'response.mcp_call.completed': { type: 'response.mcp_call.completed', sequence_number: 6, ...tool('mcp_68c1f0a5') },
  'response.mcp_call.failed': { type: 'response.mcp_call.failed', sequence_number: 6, ...tool('mcp_68c1f0a5') },
  'response.mcp_list_tools.in_progress': { type: 'response.mcp_list_tools.in_progress', sequence_number: 2, ...tool('mcpl_68c1f0a6') },
  'response.mcp_list_tools.completed': { type: 'response.mcp_list_tools.completed', sequence_number: 3, ...tool('mcpl_68c1f0a6') },
  'response.mcp_list_tools.failed': { type: 'response.mcp_list_tools.failed', sequence_number: 3, ...tool('mcpl_68c1f0a6') },
  'response.file_search_call.in_progress': { type: 'response.file_search_call.in_progress', sequence_number: 2, ...tool('fs_68c1f0a7') },
  'response.file_search_call.searching': { type: 'response.file_search_call.searching', sequence_number: 3, ...tool('fs_68c1f0a7') },
  'response.file_search_call.completed': { type: 'response.file_search_call.completed', sequence_number: 4, ...tool('fs_68c1f0a7') },
  'response.web_search_call.in_progress': { type: 'response.web_search_call.in_progress', sequence_number: 2, ...tool('ws_68c1f0a8') },
  'response.web_search_call.searching': { type: 'response.web_search_call.searching', sequence_number: 3, ...tool('ws_68c1f0a8') },
  'response.web_search_call.completed': { type: 'response.web_search_call.completed', sequence_number: 4, ...tool('ws_68c1f0a8') },
  'response.code_interpreter_call.in_progress': { type: 'response.code_interpreter_call.in_progress', sequence_number: 2, ...tool('ci_68c1f0a9') },
  'response.code_interpreter_call.interpreting': { type: 'response.code_interpreter_call.interpreting', sequence_number: 5, ...tool('ci_68c1f0a9') },
  'response.code_interpreter_call.completed': { type: 'response.code_interpreter_call.completed', sequence_number: 6, ...tool('ci_68c1f0a9') },
  'response.code_interpreter_call_code.delta': { type: 'response.code_interpreter_call_code.delta', sequence_number: 3, ...tool('ci_68c1f0a9'), delta: 'print(' },
  'response.code_interpreter_call_code.done': { type: 'response.code_interpreter_call_code.done', sequence_number: 4, ...tool('ci_68c1f0a9'), code: 'print(2 + 2)' },
  'response.image_generation_call.in_progress': { type: 'response.image_generation_call.in_progress', sequence_number: 2, ...tool('ig_68c1f0aa') },
  'response.image_generation_call.generating': { type: 'response.image_generation_call.generating', sequence_number: 3, ...tool('ig_68c1f0aa') },
  'response.image_generation_call.partial_image': {
    type: 'response.image_generation_call.partial_image',
    sequence_number: 4,
    ...tool('ig_68c1f0aa'),
    partial_image_index: 0,
    partial_image_b64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk',
  },
  'response.image_generation_call.completed': { type: 'response.image_generation_call.completed', sequence_number: 5, ...tool('ig_68c1f0aa') },
  'response.audio.delta': { type: 'response.audio.delta', sequence_number: 3, delta: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEA' },
  'response.audio.done': { type: 'response.audio.done', sequence_number: 9 },
  'response.audio.transcript.delta': { type: 'response.audio.transcript.delta', sequence_number: 4, delta: 'Hello' },
  'response.audio.transcript.done': { type: 'response.audio.transcript.done', sequence_number: 8 },
  error: { type: 'error', sequence_number: 5, code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5-mini.', param: null },
}

/** Fields the reference marks optional or that some servers leave out; every other field of a sample is required. */
const OPTIONAL = new Set(['sequence_number', 'logprobs', 'obfuscation', 'name'])
const isRequired = (type: string, field: string) => field !== 'type' && type !== 'error' && !OPTIONAL.has(field)

const events = Object.values(EVENTS)
const fieldsOf = (event: object) => Object.keys(event).filter((field) => field !== 'type')
const unknownEvent = () => streamEventSchema('response.future_feature.delta')

describe('the event catalog', () => {
  it.each(events.map((e) => [e.type, e] as const))('%s: a type of its own, accepted as it came', (type, event) => {
    expect(streamEventSchema(type)).not.toBe(unknownEvent())
    expect(v.is(streamEventSchema(type), event)).toBe(true)
    expect(parseStreamEvent(event)).toBe(event)
    expect(parseStreamEvent({ ...event })).toEqual(event)
  })

  it.each(events.map((e) => [e.type, e] as const))('%s: refused without a required field or with one of the wrong type, naming it', (type, event) => {
    for (const field of fieldsOf(event)) {
      const value = (event as Record<string, unknown>)[field]
      if (isRequired(type, field)) expect(refusal(without(event, field)), `${type} without ${field}`).toContain(field)
      if (value !== null && type !== 'error') expect(refusal({ ...event, [field]: mistyped(value) }), `${type}.${field} mistyped`).toContain(field)
      expect(refusal({ ...event, [field]: false }), `${type}.${field} = false`).toContain(field)
      if (field.endsWith('_index')) expect(refusal({ ...event, [field]: 1.5 }), `${type}.${field} = 1.5`).toContain(field)
    }
  })

  it('lets an event type it does not model through, whatever its fields', () => {
    const future = { type: 'response.output_text.annotation.removed', sequence_number: 11, item_id: 7, annotation: 'gone' }
    expect(parseStreamEvent(future)).toBe(future)
  })

  it('still checks the type and sequence number of an event it does not model', () => {
    expect(refusal({ type: 'response.future_feature.delta', sequence_number: '11' })).toEqual(['sequence_number'])
    expect(refusal({ type: 11, sequence_number: 11 })).toEqual(['type'])
  })
})

describe('the error event', () => {
  const nested = { type: 'error', sequence_number: 2, error: { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Too long.', param: 'input' } }

  it.each([
    ['flat, with a string code', EVENTS.error],
    ['flat, with a numeric code', { ...EVENTS.error, code: 429 }],
    ['flat, with nulls', { type: 'error', code: null, message: 'Something went wrong.', param: null }],
    ['nested', nested],
    ['nested, with a numeric code', { ...nested, error: { ...nested.error, code: 3001 } }],
  ])('accepts it %s', (_, event) => {
    expect(parseStreamEvent(event)).toBe(event)
  })

  it.each([
    ['a numeric message', { ...EVENTS.error, message: 5 }, 'message'],
    ['a code that is an object', { ...EVENTS.error, code: { id: 1 } }, 'code'],
    ['a numeric param', { ...EVENTS.error, param: 0 }, 'param'],
    ['a nested numeric message', { ...nested, error: { ...nested.error, message: 5 } }, 'error.message'],
    ['a nested code that is a boolean', { ...nested, error: { ...nested.error, code: true } }, 'error.code'],
    ['a nested numeric type', { ...nested, error: { ...nested.error, type: 500 } }, 'error.type'],
    ['an error that is a string', { ...nested, error: 'boom' }, 'error'],
  ])('refuses it with %s', (_, event, path) => {
    expect(refusal(event)).toContain(path)
  })
})

// ---------------------------------------------------------------------------
// Output items, as `response.output_item.done` carries them

type ItemType = Exclude<OutputItem['type'], UnknownType>
type Item<K extends ItemType> = Extract<OutputItem, { type: K }>

/** One finished item of every modelled kind, with the fields each requires. */
const ITEMS: { readonly [K in ItemType]: { readonly item: Item<K>; readonly required: readonly string[] } } = {
  message: {
    item: {
      type: 'message',
      id: 'msg_68c1f0a2e5b48190a4',
      role: 'assistant',
      status: 'completed',
      phase: 'final_answer',
      content: [{ type: 'output_text', text: 'Paris.', annotations: [], logprobs: [] }],
    },
    required: ['id', 'role', 'content'],
  },
  reasoning: {
    item: { type: 'reasoning', id: 'rs_68c1f0a2', summary: [{ type: 'summary_text', text: '**Finding the capital**' }], encrypted_content: 'gAAAAABoxPA', status: 'completed' },
    required: ['id'],
  },
  function_call: {
    item: { type: 'function_call', id: 'fc_68c1f0a3b9e08190b7', call_id: 'call_Qx8d2YzU', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
    required: ['name', 'arguments'],
  },
  custom_tool_call: {
    item: { type: 'custom_tool_call', id: 'ctc_68c1f0a4', call_id: 'call_7bX2', name: 'run_sql', input: 'SELECT count(*) FROM users', status: 'completed' },
    required: ['call_id', 'name', 'input'],
  },
  web_search_call: {
    item: {
      type: 'web_search_call',
      id: 'ws_68c1f0a8',
      status: 'completed',
      action: { type: 'search', query: 'weather in Paris today', sources: [{ type: 'url', url: 'https://weather.example/paris' }] },
    },
    required: ['id'],
  },
  file_search_call: {
    item: {
      type: 'file_search_call',
      id: 'fs_68c1f0a7',
      status: 'completed',
      queries: ['refund policy'],
      results: [{ file_id: 'file-2dtbBZdjtDKS8eqWxqbgDi', filename: 'policy.pdf', score: 0.92, text: 'Refunds within 30 days.', attributes: {} }],
    },
    required: ['id'],
  },
  code_interpreter_call: {
    item: { type: 'code_interpreter_call', id: 'ci_68c1f0a9', status: 'completed', code: 'print(2 + 2)', container_id: 'cntr_68c1f0', outputs: [{ type: 'logs', logs: '4\n' }] },
    required: ['id'],
  },
  image_generation_call: {
    item: {
      type: 'image_generation_call',
      id: 'ig_68c1f0aa',
      status: 'completed',
      result: 'iVBORw0KGgo=',
      revised_prompt: 'A grey tabby cat on a windowsill',
      size: '1024x1024',
      quality: 'high',
      background: 'opaque',
      output_format: 'png',
    },
    required: ['id'],
  },
  mcp_call: {
    item: {
      type: 'mcp_call',
      id: 'mcp_68c1f0a5',
      server_label: 'deepwiki',
      name: 'ask_question',
      arguments: '{"repoName":"openai/codex"}',
      output: 'Codex is a coding agent.',
      error: null,
      approval_request_id: null,
      status: 'completed',
    },
    required: ['id', 'server_label', 'name', 'arguments'],
  },
  mcp_list_tools: {
    item: {
      type: 'mcp_list_tools',
      id: 'mcpl_68c1f0a6',
      server_label: 'deepwiki',
      tools: [{ name: 'ask_question', description: 'Ask a question about a repository', input_schema: { type: 'object' }, annotations: null }],
      error: null,
    },
    required: ['id', 'server_label', 'tools'],
  },
  mcp_approval_request: {
    item: { type: 'mcp_approval_request', id: 'mcpr_68c1f0ab', server_label: 'deepwiki', name: 'ask_question', arguments: '{"question":"What is Codex?"}' },
    required: ['id', 'server_label', 'name', 'arguments'],
  },
  computer_call: {
    item: { type: 'computer_call', id: 'cu_68c1f0ac', call_id: 'call_zx9', status: 'completed', action: { type: 'click', x: 156, y: 84, button: 'left' } },
    required: ['id', 'call_id'],
  },
  local_shell_call: {
    item: { type: 'local_shell_call', id: 'lsh_68c1f0ad', call_id: 'call_sh1', status: 'completed', action: { type: 'exec', command: ['ls', '-la'], env: {} } },
    required: ['id', 'call_id'],
  },
}

const itemDone = (item: unknown) => ({ type: 'response.output_item.done', sequence_number: 9, output_index: 0, item })
const items = Object.entries(ITEMS).map(([type, { item, required }]) => [type, item as Record<string, unknown>, required] as const)

describe('the output item catalog', () => {
  it('knows the built-in tool items by type', () => {
    expect([...TOOL_ITEM_TYPES].sort()).toEqual(items.map(([type]) => type).filter((type) => !['message', 'reasoning', 'function_call', 'custom_tool_call'].includes(type)).sort())
  })

  it.each(items)('%s: accepted as it came, in an event and in a response', (_, item) => {
    const event = itemDone(item)
    expect(parseStreamEvent(event)).toBe(event)
    const completed = { ...EVENTS['response.completed'], response: answered({ status: 'completed', output: [item as OutputItem] }) }
    expect(parseStreamEvent(completed)).toBe(completed)
  })

  it.each(items)('%s: refused without a required field or with one of the wrong type, naming it', (type, item, required) => {
    for (const field of required) expect(refusal(itemDone(without(item, field))), `${type} without ${field}`).toContain(`item.${field}`)
    for (const field of fieldsOf(item)) expect(refusal(itemDone({ ...item, [field]: false })), `${type}.${field} = false`).toContain(`item.${field}`)
  })

  it.each([
    ['a web search whose action has no type', 'item.action.type', { ...ITEMS.web_search_call.item, action: { query: 'x' } }],
    ['a web search whose queries are not strings', 'item.action.queries.0', { ...ITEMS.web_search_call.item, action: { type: 'search', queries: [1] } }],
    ['a web search source without a type', 'item.action.sources.0.type', { ...ITEMS.web_search_call.item, action: { type: 'search', sources: [{ url: 'https://a.example' }] } }],
    ['a file search result with a text score', 'item.results.0.score', { ...ITEMS.file_search_call.item, results: [{ file_id: 'file-1', score: 'high' }] }],
    ['a file search result whose attributes are a string', 'item.results.0.attributes', { ...ITEMS.file_search_call.item, results: [{ attributes: 'x' }] }],
    ['a code interpreter output without a type', 'item.outputs.0.type', { ...ITEMS.code_interpreter_call.item, outputs: [{ logs: '4\n' }] }],
    ['an MCP tool without a name', 'item.tools.0.name', { ...ITEMS.mcp_list_tools.item, tools: [{ description: 'Ask' }] }],
    ['an MCP call whose error is a number', 'item.error', { ...ITEMS.mcp_call.item, error: 500 }],
    ['a message whose text part has no text', 'item.content.0.text', { ...ITEMS.message.item, content: [{ type: 'output_text', annotations: [] }] }],
    ['a reasoning summary part without text', 'item.summary.0.text', { ...ITEMS.reasoning.item, summary: [{ type: 'summary_text' }] }],
    ['a reasoning content part of another kind', 'item.content.0.type', { ...ITEMS.reasoning.item, content: [{ type: 'output_text', text: 'x' }] }],
  ])('refuses %s, naming %s', (_, path, item) => {
    expect(refusal(itemDone(item))).toContain(path)
  })

  it.each([
    ['an MCP call that failed with a message', { ...ITEMS.mcp_call.item, status: 'failed', output: null, error: 'Server unavailable' }],
    ['an MCP call that failed with an error object', { ...ITEMS.mcp_call.item, status: 'failed', output: null, error: { type: 'http_error', code: 502, message: 'Bad gateway' } }],
    ['an item of a kind it does not model', { type: 'shell_call', id: 'sh_1', call_id: 'call_9', action: { commands: ['ls'] } }],
    ['an item of a kind it does not model, with no other field', { type: 'compaction' }],
  ])('accepts %s', (_, item) => {
    const event = itemDone(item)
    expect(parseStreamEvent(event)).toBe(event)
  })
})

// ---------------------------------------------------------------------------
// Content parts and annotations

type PartType = Exclude<ContentPart['type'], UnknownType>
const PARTS: { readonly [K in PartType]: Extract<ContentPart, { type: K }> } = {
  output_text: { type: 'output_text', text: 'Paris.', annotations: [{ type: 'url_citation', url: 'https://en.wikipedia.org/wiki/Paris', start_index: 0, end_index: 6 }], logprobs: [] },
  refusal: { type: 'refusal', refusal: "I'm sorry, I can't help with that." },
  reasoning_text: { type: 'reasoning_text', text: 'The user asks for a capital.' },
}
const SUMMARY_PART: SummaryTextPart = { type: 'summary_text', text: '**Finding the capital**' }

type AnnotationType = Exclude<Annotation['type'], UnknownType>
const ANNOTATIONS: { readonly [K in AnnotationType]: { readonly annotation: Extract<Annotation, { type: K }>; readonly required: readonly string[] } } = {
  url_citation: { annotation: { type: 'url_citation', url: 'https://en.wikipedia.org/wiki/Paris', start_index: 10, end_index: 42, title: 'Paris - Wikipedia' }, required: ['url', 'start_index', 'end_index'] },
  file_citation: { annotation: { type: 'file_citation', file_id: 'file-2dtbBZdjtDKS8eqWxqbgDi', index: 120, filename: 'policy.pdf' }, required: ['file_id'] },
  container_file_citation: {
    annotation: { type: 'container_file_citation', container_id: 'cntr_68c1f0', file_id: 'cfile_68c1f1', start_index: 0, end_index: 30, filename: 'plot.png' },
    required: ['container_id', 'file_id'],
  },
  file_path: { annotation: { type: 'file_path', file_id: 'file-6F2ksmvXxt4VdoqmHRw6kL', index: 3 }, required: ['file_id'] },
}

const partAdded = (part: unknown) => ({ ...EVENTS['response.content_part.done'], part })
const summaryAdded = (part: unknown) => ({ ...EVENTS['response.reasoning_summary_part.done'], part })
const annotationAdded = (annotation: unknown) => ({ ...EVENTS['response.output_text.annotation.added'], annotation })
const parts = [...Object.values(PARTS).map((p) => [p.type, p as Record<string, unknown>, partAdded] as const), ['summary_text', SUMMARY_PART as Record<string, unknown>, summaryAdded] as const]

describe('the content part catalog', () => {
  it.each(parts)('%s: accepted as it came', (_, part, carry) => {
    const event = carry(part)
    expect(parseStreamEvent(event)).toBe(event)
  })

  it.each(parts)('%s: refused without a required field or with one of the wrong type, naming it', (type, part, carry) => {
    for (const field of fieldsOf(part)) {
      if (field !== 'annotations' && field !== 'logprobs') expect(refusal(carry(without(part, field))), `${type} without ${field}`).toContain(`part.${field}`)
      expect(refusal(carry({ ...part, [field]: false })), `${type}.${field} = false`).toContain(`part.${field}`)
    }
  })

  it('accepts a part of a kind it does not model, but a summary part must be one', () => {
    const future = partAdded({ type: 'output_audio', data: 'UklGRg==', transcript: 'Hi' })
    expect(parseStreamEvent(future)).toBe(future)
    expect(refusal(summaryAdded({ type: 'output_audio', text: 'x' }))).toContain('part.type')
  })
})

describe('the annotation catalog', () => {
  const annotations = Object.entries(ANNOTATIONS).map(([type, a]) => [type, a.annotation as Record<string, unknown>, a.required] as const)

  it.each(annotations)('%s: accepted as it came, in its event and in a text part', (_, annotation) => {
    const event = annotationAdded(annotation)
    expect(parseStreamEvent(event)).toBe(event)
    const done = partAdded({ ...PARTS.output_text, annotations: [annotation] })
    expect(parseStreamEvent(done)).toBe(done)
  })

  it.each(annotations)('%s: refused without a required field or with one of the wrong type, naming it', (type, annotation, required) => {
    for (const field of required) expect(refusal(annotationAdded(without(annotation, field))), `${type} without ${field}`).toContain(`annotation.${field}`)
    for (const field of fieldsOf(annotation)) {
      expect(refusal(annotationAdded({ ...annotation, [field]: false })), `${type}.${field} = false`).toContain(`annotation.${field}`)
      if (field.endsWith('index')) expect(refusal(annotationAdded({ ...annotation, [field]: 1.5 })), `${type}.${field} = 1.5`).toContain(`annotation.${field}`)
    }
  })

  it('accepts an annotation of a kind it does not model', () => {
    const event = annotationAdded({ type: 'page_citation', page: 4 })
    expect(parseStreamEvent(event)).toBe(event)
  })
})

describe('log probabilities', () => {
  const logprob = { token: 'Par', logprob: -0.0012, bytes: [80, 97, 114], top_logprobs: [{ token: 'Par', logprob: -0.0012, bytes: [80, 97, 114] }, { token: 'The', logprob: -6.9 }] }
  const delta = (logprobs: unknown) => ({ ...EVENTS['response.output_text.delta'], logprobs })

  it('accepts them on a delta, a done event and a text part', () => {
    for (const event of [delta([logprob]), { ...EVENTS['response.output_text.done'], logprobs: [logprob] }, partAdded({ ...PARTS.output_text, logprobs: [logprob] })]) {
      expect(parseStreamEvent(event)).toBe(event)
    }
  })

  it.each([
    ['without token', 'logprobs.0.token', { ...logprob, token: undefined }],
    ['without logprob', 'logprobs.0.logprob', { ...logprob, logprob: undefined }],
    ['with text bytes', 'logprobs.0.bytes', { ...logprob, bytes: 'Par' }],
    ['with a text alternative logprob', 'logprobs.0.top_logprobs.0.logprob', { ...logprob, top_logprobs: [{ token: 'The', logprob: 'low' }] }],
    ['with a numeric alternative token', 'logprobs.0.top_logprobs.0.token', { ...logprob, top_logprobs: [{ token: 7 }] }],
  ])('refuses one %s, naming %s', (_, path, broken) => {
    expect(refusal(delta([broken]))).toContain(path)
  })
})
