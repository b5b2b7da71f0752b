import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { InvalidRequestError as InvalidRequestErrorClass } from '../../src/errors/InvalidRequestError.js'

let InvalidRequestError: typeof InvalidRequestErrorClass
let isInvalidRequestError: (typeof import('../../src/errors/InvalidRequestError.js'))['isInvalidRequestError']
let serializeRequest: (typeof import('../../src/validation/check.js'))['serializeRequest']
let ResponseRequestSchema: (typeof import('../../src/validation/responseRequest.js'))['ResponseRequestSchema']

// The rules are built when their modules load: each test loads its own copy.
beforeEach(async () => {
  vi.resetModules()
  ;({ InvalidRequestError, isInvalidRequestError } = await import('../../src/errors/InvalidRequestError.js'))
  ;({ serializeRequest } = await import('../../src/validation/check.js'))
  ;({ ResponseRequestSchema } = await import('../../src/validation/responseRequest.js'))
})

/** The issues the schema finds in `body`, as sent, or [] when it passes. */
function issuesOf(body: unknown): { path: string; message: string }[] {
  try {
    serializeRequest(ResponseRequestSchema, body, 'response request')
    return []
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    expect(isInvalidRequestError(err)).toBe(true)
    expect((err as Error).message).toMatch(/^Invalid response request: .*Nothing was sent\.$/s)
    return [...(err as InvalidRequestErrorClass).issues]
  }
}

function expectRefused(body: unknown, field: string, rule: RegExp): void {
  const issue = issuesOf(body).find((i) => i.path === field || i.path.startsWith(`${field}.`))
  expect(issue, `an issue for ${field} in ${JSON.stringify(issuesOf(body))}`).toBeDefined()
  expect(issue!.message).toMatch(rule)
}

const expectAccepted = (body: unknown) => expect(issuesOf(body)).toEqual([])

describe('model', () => {
  it('is required', () => expectRefused({ input: 'hi' }, 'model', /required/))
  it('must be a string', () => expectRefused({ model: 42 }, 'model', /string/))
  it('must not be empty', () => expectRefused({ model: '' }, 'model', /empty/))
  it.each([[null], ['model'], [42], [[]]])('the body must be an object, not %j', (body) => {
    expect(issuesOf(body)).not.toEqual([])
  })
})

describe('numeric ranges, at their boundaries', () => {
  it.each([
    ['max_output_tokens', 0, /integer of at least 1/],
    ['max_output_tokens', -5, /integer of at least 1/],
    ['max_output_tokens', 1.5, /integer/],
    ['max_output_tokens', '100', /number/],
    ['temperature', -0.01, /from 0 to 2/],
    ['temperature', 2.01, /from 0 to 2/],
    ['temperature', '1', /number/],
    ['top_p', -0.1, /from 0 to 1/],
    ['top_p', 1.0001, /from 0 to 1/],
    ['top_p', true, /number/],
    ['top_logprobs', -1, /integer from 0 to 20/],
    ['top_logprobs', 21, /integer from 0 to 20/],
    ['top_logprobs', 2.5, /integer/],
    ['max_tool_calls', -1, /integer/],
    ['max_tool_calls', 0.5, /integer/],
  ])('%s = %j is refused', (field, value, rule) => expectRefused({ model: 'm', [field]: value }, field, rule))

  it('names the value it got', () => {
    expect(issuesOf({ model: 'm', temperature: 3 })).toEqual([{ path: 'temperature', message: 'must be from 0 to 2 (got 3)' }])
  })

  it('refuses NaN and Infinity, which would be sent as null (accepted where null is), naming the field', () => {
    expect(issuesOf({ model: 'm', temperature: Number.NaN })).toEqual([{ path: 'temperature', message: 'must be a finite number (got NaN)' }])
    expect(issuesOf({ model: 'm', temperature: Number.POSITIVE_INFINITY })).toEqual([{ path: 'temperature', message: 'must be a finite number (got Infinity)' }])
    expect(serializeRequest(ResponseRequestSchema, { model: 'm', temperature: null })).toBe('{"model":"m","temperature":null}')
  })

  it.each([
    ['max_output_tokens', 1],
    ['max_output_tokens', 1_000_000],
    ['temperature', 0],
    ['temperature', 2],
    ['temperature', 0.7],
    ['top_p', 0],
    ['top_p', 1],
    ['top_logprobs', 0],
    ['top_logprobs', 20],
    ['max_tool_calls', 0],
  ])('%s = %j is accepted', (field, value) => expectAccepted({ model: 'm', [field]: value }))

  it.each(['max_output_tokens', 'max_tool_calls', 'temperature', 'top_p', 'top_logprobs'])('%s = null is accepted', (field) => expectAccepted({ model: 'm', [field]: null }))
})

describe('enumerations', () => {
  it.each(['auto', 'disabled', null])('truncation %j is accepted', (truncation) => expectAccepted({ model: 'm', truncation }))
  it.each(['enabled', 'AUTO', '', 1])('truncation %j is refused', (truncation) => expectRefused({ model: 'm', truncation }, 'truncation', /"auto" or "disabled"/))
  it.each(['none', 'auto', 'required'])('tool_choice %j is accepted', (tool_choice) => expectAccepted({ model: 'm', tool_choice }))
  it('tool_choice as a tool object is accepted', () => expectAccepted({ model: 'm', tool_choice: { type: 'function', name: 'get_weather' } }))
  it.each(['sometimes', 'Auto', 7, true, []])('tool_choice %j is refused', (tool_choice) => expectRefused({ model: 'm', tool_choice }, 'tool_choice', /none.*auto.*required/))
})

describe('metadata', () => {
  const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]))

  it('accepts 16 pairs, 64-character keys and 512-character values', () => expectAccepted({ model: 'm', metadata: { ...pairs(15), ['k'.repeat(64)]: 'v'.repeat(512) } }))
  it('refuses 17 pairs', () => expectRefused({ model: 'm', metadata: pairs(17) }, 'metadata', /at most 16 pairs \(got 17\)/))
  it('refuses a 65-character key', () => expectRefused({ model: 'm', metadata: { ['k'.repeat(65)]: 'v' } }, 'metadata', /at most 64 characters \(got 65\)/))
  it('refuses a 513-character value, naming its key', () => {
    expect(issuesOf({ model: 'm', metadata: { note: 'v'.repeat(513) } })).toEqual([{ path: 'metadata.note', message: 'must be at most 512 characters (got 513)' }])
  })
  it('refuses a value that is not a string', () => expectRefused({ model: 'm', metadata: { n: 1 } }, 'metadata.n', /string/))
  it('refuses metadata that is not an object', () => expectRefused({ model: 'm', metadata: ['a'] }, 'metadata', /object/))
  it('accepts empty metadata and refuses null, which is not an object', () => {
    expectAccepted({ model: 'm', metadata: {} })
    expect(issuesOf({ model: 'm', metadata: null }).map((i) => i.path)).toEqual(['metadata'])
  })

  // Keys a plain record schema skips; they are sent like any other.
  it.each(['__proto__', 'constructor', 'prototype'])('checks the key %s like any other', (key) => {
    const bad = JSON.parse(`{"model":"m","metadata":{"${key}":${JSON.stringify('v'.repeat(513))}}}`)
    expect(issuesOf(bad)).toEqual([{ path: `metadata.${key}`, message: 'must be at most 512 characters (got 513)' }])
    const notText = JSON.parse(`{"model":"m","metadata":{"${key}":5}}`)
    expect(issuesOf(notText)).toEqual([{ path: `metadata.${key}`, message: 'must be a string' }])
    expectAccepted(JSON.parse(`{"model":"m","metadata":{"${key}":"ok"}}`))
  })

  it('counts a __proto__ key among the 16 pairs', () => {
    const body = JSON.parse(`{"model":"m","metadata":{"__proto__":"x",${Object.entries(pairs(16)).map(([k, v]) => `"${k}":"${v}"`).join(',')}}}`)
    expectRefused(body, 'metadata', /at most 16 pairs \(got 17\)/)
  })
})

describe('the type of every field', () => {
  it.each([
    ['input', 42, /string or an array/],
    ['input', [1], /message objects|string or an array/],
    ['instructions', 1, /string/],
    ['previous_response_id', {}, /string/],
    ['prompt', 'template', /object/],
    ['parallel_tool_calls', 'yes', /true or false/],
    ['stream', 'true', /true or false/],
    ['background', 1, /true or false/],
    ['store', 'no', /true or false/],
    ['text', 'plain', /object/],
    ['tools', 'web_search', /array/],
    ['tools', ['web_search'], /tool objects|object/],
    ['reasoning', 'high', /object/],
    ['user', 7, /string/],
    ['include', 'file_search_call.results', /array of strings/],
    ['include', [1], /string/],
    ['prompt', [], /object/],
    ['text', ['plain'], /object/],
    ['reasoning', [], /object/],
    ['tools', [[]], /object/],
    ['input', [['hi']], /message objects|object/],
  ])('%s = %j is refused', (field, value, rule) => expectRefused({ model: 'm', [field]: value }, field, rule))

  it.each([
    ['tools', [, { type: 'web_search' }]],
    ['include', ['a', , 'b']],
    ['input', [, { role: 'user', content: 'hi' }]],
  ])('a sparse %s list is refused: its holes are sent as null', (field, value) => {
    expect(issuesOf({ model: 'm', [field]: value }).map((i) => i.path)).toEqual([expect.stringMatching(new RegExp(`^${field}`))])
  })

  it('accepts a fully specified body as it is, unknown newer fields included', () => {
    const body = {
      model: 'gpt-test',
      input: [{ role: 'user', content: 'hi' }],
      instructions: 'Be brief.',
      previous_response_id: null,
      prompt: { id: 'pmpt_1', variables: { a: 'b' } },
      max_output_tokens: 100,
      max_tool_calls: 2,
      temperature: 1,
      top_p: 0.5,
      top_logprobs: 3,
      parallel_tool_calls: true,
      background: false,
      store: true,
      text: { format: { type: 'text' } },
      tools: [{ type: 'web_search' }],
      tool_choice: 'auto',
      reasoning: { effort: 'low' },
      truncation: 'auto',
      metadata: { a: 'b' },
      user: 'u-1',
      include: ['file_search_call.results'],
      service_tier: 'auto',
    }
    expect(JSON.parse(serializeRequest(ResponseRequestSchema, body))).toEqual(body)
  })

  it.each(['instructions', 'previous_response_id', 'parallel_tool_calls', 'store', 'tools', 'truncation', 'user', 'include'])('%s = null is accepted', (field) =>
    expectAccepted({ model: 'm', [field]: null }),
  )

  it('names every violation in one error', () => {
    expect(issuesOf({ model: '', temperature: 5, top_p: -1 }).map((i) => i.path).sort()).toEqual(['model', 'temperature', 'top_p'])
  })
})

describe('what each refusal says', () => {
  it.each([
    ['a body that is not an object', null, [{ path: '', message: 'must be an object' }]],
    ['no model', {}, [{ path: 'model', message: 'is required' }]],
    ['an empty model', { model: '' }, [{ path: 'model', message: 'must not be empty' }]],
    ['a null prompt', { model: 'm', prompt: null }, [{ path: 'prompt', message: 'must be an object' }]],
    ['a tool_choice word outside the list', { model: 'm', tool_choice: 'any' }, [{ path: 'tool_choice', message: 'must be "none", "auto", "required" or a tool object' }]],
    ['a truncation word outside the list', { model: 'm', truncation: 'on' }, [{ path: 'truncation', message: 'must be "auto" or "disabled"' }]],
    ['input of another type', { model: 'm', input: 42 }, [{ path: 'input', message: 'must be a string or an array of message objects' }]],
    ['tools that are not a list', { model: 'm', tools: {} }, [{ path: 'tools', message: 'must be an array of tool objects' }]],
    ['include that is not a list', { model: 'm', include: 'x' }, [{ path: 'include', message: 'must be an array of strings' }]],
    ['metadata that is not an object', { model: 'm', metadata: 'k=v' }, [{ path: 'metadata', message: 'must be an object of string values' }]],
    ['top_logprobs that is not a number', { model: 'm', top_logprobs: '3' }, [{ path: 'top_logprobs', message: 'must be a number' }]],
    ['a fractional top_logprobs', { model: 'm', top_logprobs: 2.5 }, [{ path: 'top_logprobs', message: 'must be an integer from 0 to 20 (got 2.5)' }]],
    ['a top_logprobs above 20', { model: 'm', top_logprobs: 21 }, [{ path: 'top_logprobs', message: 'must be an integer from 0 to 20 (got 21)' }]],
    ['a fractional max_output_tokens', { model: 'm', max_output_tokens: 1.5 }, [{ path: 'max_output_tokens', message: 'must be an integer of at least 1 (got 1.5)' }]],
    ['a max_output_tokens of 0', { model: 'm', max_output_tokens: 0 }, [{ path: 'max_output_tokens', message: 'must be an integer of at least 1 (got 0)' }]],
    ['a negative max_tool_calls', { model: 'm', max_tool_calls: -1 }, [{ path: 'max_tool_calls', message: 'must be an integer of at least 0 (got -1)' }]],
    ['max_output_tokens that is not a number', { model: 'm', max_output_tokens: '100' }, [{ path: 'max_output_tokens', message: 'must be a number' }]],
    ['a temperature below 0', { model: 'm', temperature: -0.5 }, [{ path: 'temperature', message: 'must be from 0 to 2 (got -0.5)' }]],
    ['a top_p above 1', { model: 'm', top_p: 1.5 }, [{ path: 'top_p', message: 'must be from 0 to 1 (got 1.5)' }]],
    ['top_p that is not a number', { model: 'm', top_p: '1' }, [{ path: 'top_p', message: 'must be a number' }]],
    ['stream that is not a boolean', { model: 'm', stream: 'yes' }, [{ path: 'stream', message: 'must be true or false' }]],
    ['instructions that are not a string', { model: 'm', instructions: 5 }, [{ path: 'instructions', message: 'must be a string' }]],
    ['a prompt that is a list', { model: 'm', prompt: [] }, [{ path: 'prompt', message: 'must be an object' }]],
  ])('%s', (_, body, expected) => {
    expect(issuesOf(body)).toEqual(expected)
  })
})
