import * as v from 'valibot'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { OPENAI_USAGE, response, SPEC_USAGE } from '../helpers/fixtures.js'

type ResponseModule = typeof import('../../src/validation/response.js')
let isTerminalStatus: ResponseModule['isTerminalStatus']
let ResponseSchema: ResponseModule['ResponseSchema']

// The schemas are built when their modules load: each test loads its own copy.
beforeEach(async () => {
  vi.resetModules()
  ;({ isTerminalStatus, ResponseSchema } = await import('../../src/validation/response.js'))
})

const paths = (value: unknown): string[] => {
  const result = v.safeParse(ResponseSchema, value)
  return result.success ? [] : result.issues.map((i) => v.getDotPath(i) ?? '')
}

describe('Response', () => {
  it.each(['completed', 'incomplete', 'in_progress', 'failed', 'queued', 'cancelled'])('accepts the status %s', (status) => {
    expect(paths(response({ status }))).toEqual([])
  })

  it.each([
    ['the interface’s prompt_tokens/completion_tokens', SPEC_USAGE],
    ['input_tokens/output_tokens', OPENAI_USAGE],
  ])('accepts usage as %s', (_, usage) => {
    expect(paths(response({ usage }))).toEqual([])
  })

  it('keeps fields it does not model (content_filters, billing, copilot_usage)', () => {
    const r = response({ content_filters: [{ blocked: false }], billing: { payer: 'x' }, output_text: '' })
    expect(v.parse(ResponseSchema, r)).toEqual(r)
  })

  it('accepts reasoning and tool call items and parts it does not model', () => {
    const output = [
      { id: 'rs_1', type: 'reasoning', summary: [] },
      { id: 'fc_1', type: 'function_call', name: 'f', arguments: '{}' },
      { id: 'm', type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }, { type: 'output_text', text: 'x', annotations: [] }] },
    ]
    expect(paths(response({ output }))).toEqual([])
  })

  it.each([
    ['a missing id', { id: undefined }, 'id'],
    ['an id that would change a path', { id: '../x' }, 'id'],
    ['an id with a slash', { id: 'a/b' }, 'id'],
    ['an id of ".."', { id: '..' }, 'id'],
    ['an unknown status', { status: 'exploded' }, 'status'],
    ['a wrong object', { object: 'chat.completion' }, 'object'],
    ['a negative token count', { usage: { input_tokens: -1 } }, 'usage.input_tokens'],
    ['a fractional token count', { usage: { total_tokens: 1.5 } }, 'usage.total_tokens'],
    ['a message without content', { output: [{ id: 'm', type: 'message', role: 'assistant' }] }, 'output.0.content'],
    ['a message whose content is not an array', { output: [{ id: 'm', type: 'message', role: 'assistant', content: 'Hi' }] }, 'output.0.content'],
    ['a text part without text', { output: [{ id: 'm', type: 'message', role: 'assistant', content: [{ type: 'output_text' }] }] }, 'output.0.content.0.text'],
    ['an output item without a type', { output: [{ id: 'x' }] }, 'output.0.type'],
    ['output_text that is not a string', { output_text: 5 }, 'output_text'],
  ])('refuses %s, naming %s', (_, over, path) => {
    expect(paths(response(over))).toContain(path)
  })
})

describe('isTerminalStatus', () => {
  it('says a response still changes only while queued or in_progress', () => {
    expect(['queued', 'in_progress', 'completed', 'incomplete', 'failed', 'cancelled'].map((s) => isTerminalStatus(s as never))).toEqual([false, false, true, true, true, true])
  })
})
