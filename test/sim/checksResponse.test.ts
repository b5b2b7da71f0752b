import { describe, expect, it } from 'vitest'
import { json, RESPONSES, simulator } from './helpers.js'

const base = { model: 'gpt-4o', input: 'hi' }
const long = (n: number, char = 'k') => char.repeat(n)
const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']))

/** Bodies at each rule's boundary that must pass. */
const ACCEPTED: [string, Record<string, unknown>][] = [
  ['temperature 0', { temperature: 0 }],
  ['temperature 2', { temperature: 2 }],
  ['temperature null', { temperature: null }],
  ['top_p 1', { top_p: 1 }],
  ['top_p 0', { top_p: 0 }],
  ['top_logprobs 0', { top_logprobs: 0 }],
  ['top_logprobs 20', { top_logprobs: 20 }],
  ['max_output_tokens 1', { max_output_tokens: 1 }],
  ['max_output_tokens null', { max_output_tokens: null }],
  ['max_tool_calls 0', { max_tool_calls: 0 }],
  ['16 metadata pairs', { metadata: pairs(16) }],
  ['a 64-character key and a 512-character value', { metadata: { [long(64)]: long(512, 'v') } }],
  ['astral characters counted as one each', { metadata: { [long(64, '😀')]: long(512, '😀') } }],
  ['__proto__, constructor and prototype as keys', { metadata: JSON.parse('{"__proto__":"a","constructor":"b","prototype":"c"}') }],
  ['truncation auto', { truncation: 'auto' }],
  ['truncation disabled', { truncation: 'disabled' }],
  ['truncation null', { truncation: null }],
  ['tool_choice none', { tool_choice: 'none' }],
  ['tool_choice required', { tool_choice: 'required', tools: [{ type: 'function', name: 'f' }] }],
  ['tool_choice object', { tool_choice: { type: 'file_search' } }],
  ['every nullable field null', { instructions: null, previous_response_id: null, parallel_tool_calls: null, stream: null, background: null, store: null, tools: null, user: null, include: null }],
  ['structured input', { input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, { type: 'message', role: 'developer', content: 'be brief' }] }],
  ['an empty model name (the interface sets no rule)', { model: '' }],
  ['unknown fields (OpenAI-compatible extras)', { service_tier: 'auto', stream_options: { include_obfuscation: false } }],
  ['reasoning on a reasoning model', { model: 'o3-mini', reasoning: { effort: 'low', summary: 'auto' } }],
  ['an empty reasoning object on any model', { reasoning: {} }],
  ['include strings', { include: ['file_search_call.results'] }],
  ['a json_schema text format', { text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' }, strict: true } } }],
]

/** Bodies breaking one rule: the param named, and the rule in the message. */
const REFUSED: [Record<string, unknown>, string, string][] = [
  [{ model: undefined }, 'model', 'model: is required'],
  [{ model: 3 }, 'model', 'model: must be a string (got 3)'],
  [{ input: 3 }, 'input', 'input: must be a string or an array of input items (got 3)'],
  [{ input: [3] }, 'input[0]', 'input[0]: must be an object (got 3)'],
  [{ input: [{ content: 'hi' }] }, 'input[0].role', 'input[0].role: is required'],
  [{ input: [{ role: 'robot', content: 'hi' }] }, 'input[0].role', 'input[0].role: must be one of'],
  [{ input: [{ role: 'user' }] }, 'input[0].content', 'input[0].content: is required'],
  [{ input: [{ role: 'user', content: [{ text: 'x' }] }] }, 'input[0].content[0].type', 'is required'],
  [{ input: [{ type: 'function_call_output', output: 'x' }] }, 'input[0].call_id', 'input[0].call_id: is required'],
  [{ instructions: 5 }, 'instructions', 'instructions: must be a string or null (got 5)'],
  [{ previous_response_id: 5 }, 'previous_response_id', 'must be a string or null'],
  [{ prompt: 'p' }, 'prompt', 'prompt: must be an object (got "p")'],
  [{ prompt: null }, 'prompt', 'prompt: must be an object (got null)'],
  [{ max_output_tokens: 0 }, 'max_output_tokens', 'max_output_tokens: must be an integer of at least 1 (got 0)'],
  [{ max_output_tokens: 1.5 }, 'max_output_tokens', 'max_output_tokens: must be an integer or null (got 1.5)'],
  [{ max_output_tokens: '5' }, 'max_output_tokens', 'must be an integer or null (got "5")'],
  [{ max_tool_calls: 1.5 }, 'max_tool_calls', 'must be an integer or null'],
  [{ temperature: 2.0000001 }, 'temperature', 'temperature: must be a number from 0 to 2 inclusive (got 2.0000001)'],
  [{ temperature: -0.1 }, 'temperature', 'temperature: must be a number from 0 to 2 inclusive (got -0.1)'],
  [{ temperature: '1' }, 'temperature', 'temperature: must be a number or null (got "1")'],
  [{ top_p: 1.01 }, 'top_p', 'top_p: must be a number from 0 to 1 inclusive (got 1.01)'],
  [{ top_p: -0.01 }, 'top_p', 'from 0 to 1 inclusive'],
  [{ top_logprobs: 21 }, 'top_logprobs', 'top_logprobs: must be an integer from 0 to 20 inclusive (got 21)'],
  [{ top_logprobs: -1 }, 'top_logprobs', 'from 0 to 20 inclusive (got -1)'],
  [{ top_logprobs: 2.5 }, 'top_logprobs', 'must be an integer or null (got 2.5)'],
  [{ parallel_tool_calls: 'yes' }, 'parallel_tool_calls', 'must be a boolean or null'],
  [{ stream: 1 }, 'stream', 'stream: must be a boolean or null (got 1)'],
  [{ background: 'true' }, 'background', 'must be a boolean or null'],
  [{ store: 0 }, 'store', 'must be a boolean or null'],
  [{ background: true, store: false }, 'store', 'must not be false when background is true'],
  [{ text: 'plain' }, 'text', 'text: must be an object'],
  [{ text: { format: { type: 'xml' } } }, 'text.format.type', 'must be one of "text", "json_object", "json_schema"'],
  [{ text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name', 'text.format.name: is required'],
  [{ text: { format: { type: 'json_schema', name: 'x' } } }, 'text.format.schema', 'text.format.schema: is required'],
  [{ tools: {} }, 'tools', 'tools: must be an array or null'],
  [{ tools: ['f'] }, 'tools[0]', 'tools[0]: must be an object'],
  [{ tools: [{ name: 'f' }] }, 'tools[0].type', 'tools[0].type: is required'],
  [{ tools: [{ type: 'function' }] }, 'tools[0].name', 'tools[0].name: is required'],
  [{ tool_choice: 'always' }, 'tool_choice', 'tool_choice: must be one of "none", "auto", "required" (got "always")'],
  [{ tool_choice: null }, 'tool_choice', 'must be one of "none", "auto", "required" or an object (got null)'],
  [{ tool_choice: {} }, 'tool_choice.type', 'tool_choice.type: is required'],
  [{ tool_choice: { type: 'function', name: 'g' }, tools: [{ type: 'function', name: 'f' }] }, 'tool_choice.name', 'must name a function tool given in tools'],
  [{ reasoning: 'high' }, 'reasoning', 'reasoning: must be an object'],
  [{ reasoning: { effort: 'low' } }, 'reasoning.effort', 'is only for reasoning models'],
  [{ truncation: 'middle' }, 'truncation', 'truncation: must be one of "auto", "disabled" or null (got "middle")'],
  [{ metadata: null }, 'metadata', 'metadata: must be an object (got null)'],
  [{ metadata: [] }, 'metadata', 'metadata: must be an object (got an array of 0)'],
  [{ metadata: pairs(17) }, 'metadata', 'metadata: must have at most 16 key-value pairs (got 17)'],
  [{ metadata: { [long(65)]: 'v' } }, `metadata.${long(65)}`, 'keys must be at most 64 characters (got a key of 65)'],
  [{ metadata: { k: long(513) } }, 'metadata.k', 'metadata.k: must be at most 512 characters (got a string of 513 characters)'],
  [{ metadata: { k: 5 } }, 'metadata.k', 'metadata.k: must be a string (got 5)'],
  [{ metadata: JSON.parse('{"__proto__": 1}') }, 'metadata.__proto__', 'metadata.__proto__: must be a string (got 1)'],
  [{ metadata: { constructor: long(513) } }, 'metadata.constructor', 'must be at most 512 characters'],
  [{ metadata: { prototype: {} } }, 'metadata.prototype', 'must be a string (got an object)'],
  [{ user: 1 }, 'user', 'user: must be a string or null (got 1)'],
  [{ include: 'x' }, 'include', 'include: must be an array or null'],
  [{ include: [1] }, 'include[0]', 'include[0]: must be a string (got 1)'],
]

describe('simulator checks: response creation, every rule at its boundary', () => {
  it.each(ACCEPTED)('accepts %s', async (_, extra) => {
    const sim = await simulator()
    const reply = await json(sim, RESPONSES, { body: { ...base, ...extra } })
    expect(reply.body.error ?? null).toBeNull()
    expect(reply.status).toBe(200)
  })

  it.each(REFUSED)('refuses %j naming %s', async (extra, param, message) => {
    const sim = await simulator()
    // Spreading keeps an own "__proto__" key of a parsed object as data, so it is sent as written.
    const reply = await json(sim, RESPONSES, { body: { ...base, ...extra } })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', param })
    expect(reply.body.error.message).toContain(message)
    expect(typeof reply.body.error.code).toBe('string')
  })

  it('names the first bad field in the interface order when several are bad', async () => {
    const sim = await simulator()
    const reply = await json(sim, RESPONSES, { body: { model: 'm', metadata: pairs(17), temperature: 9, max_output_tokens: 0 } })
    expect(reply.body.error.param).toBe('max_output_tokens')
  })

  it('uses OpenAI-style codes: missing, type, value', async () => {
    const sim = await simulator()
    const code = async (body: unknown) => (await json(sim, RESPONSES, { body })).body.error.code
    expect(await code({ input: 'x' })).toBe('missing_required_parameter')
    expect(await code({ ...base, temperature: 'hot' })).toBe('invalid_type')
    expect(await code({ ...base, temperature: 3 })).toBe('invalid_value')
  })

  it('refuses a previous_response_id it does not know, and a function output for an unknown call', async () => {
    const sim = await simulator()
    const dangling = await json(sim, RESPONSES, { body: { ...base, previous_response_id: 'resp_missing' } })
    expect(dangling).toMatchObject({ status: 400, body: { error: { param: 'previous_response_id', code: 'previous_response_not_found' } } })
    const orphan = await json(sim, RESPONSES, { body: { ...base, input: [{ type: 'function_call_output', call_id: 'call_x', output: '1' }] } })
    expect(orphan).toMatchObject({ status: 400, body: { error: { param: 'input' } } })
    expect(orphan.body.error.message).toContain('call_x')
  })
})
