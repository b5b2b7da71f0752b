import * as v from 'valibot'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { OPENAI_USAGE, response, SPEC_USAGE } from '../helpers/fixtures.js'

type ResponseModule = typeof import('../../src/validation/response.js')
let ResponseSchema: ResponseModule['ResponseSchema']

// The schemas are built when their modules load: each test loads its own copy.
beforeEach(async () => {
  vi.resetModules()
  ;({ ResponseSchema } = await import('../../src/validation/response.js'))
})

// The fields of a Response beyond its id and status: usage details in both
// shapes, the error of a failed response, why an incomplete one stopped.
// Each nested object is checked field by field, not only for being an object.

/** The paths and messages of the issues found in `value`, or `[]` when it is a valid Response. */
function issues(value: unknown): { path: string; message: string }[] {
  const result = v.safeParse(ResponseSchema, value)
  return result.success ? [] : result.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message }))
}
const paths = (value: unknown) => issues(value).map((i) => i.path)

describe('Response fields', () => {
  it.each([
    ['a failed response with a string error code', { status: 'failed', error: { code: 'server_error', message: 'The model failed to respond.' } }],
    ['a failed response with a numeric error code', { status: 'failed', error: { code: 3001, message: 'Task Execution Error' } }],
    ['a failed response whose error has nulls', { status: 'failed', error: { code: null, message: null } }],
    ['an incomplete response and why', { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }],
    ['an incomplete response with no reason', { status: 'incomplete', incomplete_details: { reason: null } }],
    ['the interface’s usage with all its details', { usage: SPEC_USAGE }],
    ['OpenAI usage with its details', { usage: OPENAI_USAGE }],
    ['usage details that are null', { usage: { ...OPENAI_USAGE, input_tokens_details: null, output_tokens_details: null, prompt_tokens_details: null, completion_tokens_details: null } }],
  ])('accepts %s', (_, over) => {
    const value = response(over)
    expect(v.parse(ResponseSchema, value)).toEqual(value)
  })

  it.each([
    ['error.message', { error: { code: 'server_error', message: 500 } }],
    ['error.code', { error: { code: true, message: 'x' } }],
    ['incomplete_details.reason', { incomplete_details: { reason: 42 } }],
    ['usage.prompt_tokens_details.cached_tokens', { usage: { ...SPEC_USAGE, prompt_tokens_details: { cached_tokens: -1 } } }],
    ['usage.prompt_tokens_details.audio_tokens', { usage: { ...SPEC_USAGE, prompt_tokens_details: { audio_tokens: 0.5 } } }],
    ['usage.completion_tokens_details.reasoning_tokens', { usage: { ...SPEC_USAGE, completion_tokens_details: { reasoning_tokens: '3' } } }],
    ['usage.completion_tokens_details.audio_tokens', { usage: { ...SPEC_USAGE, completion_tokens_details: { audio_tokens: -2 } } }],
    ['usage.completion_tokens_details.accepted_prediction_tokens', { usage: { ...SPEC_USAGE, completion_tokens_details: { accepted_prediction_tokens: 1.5 } } }],
    ['usage.completion_tokens_details.rejected_prediction_tokens', { usage: { ...SPEC_USAGE, completion_tokens_details: { rejected_prediction_tokens: -1 } } }],
    ['usage.input_tokens_details.cached_tokens', { usage: { ...OPENAI_USAGE, input_tokens_details: { cached_tokens: -3 } } }],
    ['usage.output_tokens_details.reasoning_tokens', { usage: { ...OPENAI_USAGE, output_tokens_details: { reasoning_tokens: '2' } } }],
    ['usage.prompt_tokens', { usage: { prompt_tokens: -1 } }],
    ['usage.completion_tokens', { usage: { completion_tokens: 2.5 } }],
    ['usage.output_tokens', { usage: { output_tokens: '7' } }],
  ])('refuses a broken %s', (path, over) => {
    expect(paths(response(over))).toContain(path)
  })

  describe('id', () => {
    it.each(['resp_68c1f0a1d0c481909e', 'resp-1', 'a.b', 'msg:1', 'x'.repeat(256), '...'])('accepts %s', (id) => {
      expect(paths(response({ id }))).toEqual([])
    })

    it.each([
      ['"."', '.'],
      ['".."', '..'],
      ['an empty id', ''],
      ['an id of 257 characters', 'x'.repeat(257)],
      ['an id with a slash at its end', 'resp_1/'],
      ['an id with a slash at its start', '/resp_1'],
      ['an id with a space', 'resp 1'],
      ['an id with a query', 'resp_1?stream=true'],
    ])('refuses %s, saying why', (_, id) => {
      const found = issues(response({ id }))
      expect(found.map((i) => i.path)).toEqual(['id'])
      expect(found[0]?.message).toMatch(id === '.' || id === '..' ? /^must not be "\." or "\.\."$/ : /^must be an id of letters, digits/)
    })
  })
})
