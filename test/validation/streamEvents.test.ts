import { afterEach, describe, expect, it, vi } from 'vitest'
import { isValidationError, ValidationError } from '../../src/errors/ValidationError.js'
import { parseStreamEvent, type ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { delta, lifecycle } from '../helpers/fixtures.js'

/** The verdict on one event: the event as emitted, or the paths of the issues reported. */
function verdict(event: unknown): { ok: true; value: ResponseStreamEvent } | { ok: false; paths: string[]; payload: unknown } {
  try {
    return { ok: true, value: parseStreamEvent(event) }
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError)
    return { ok: false, paths: (err as ValidationError).issues.map((i) => i.path), payload: (err as ValidationError).payload }
  }
}

const contentPart = { type: 'response.content_part.added', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }
const itemAdded = { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } }
const textDone = { type: 'response.output_text.done', sequence_number: 8, item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hi' }

describe('stream event validation', () => {
  it.each([
    ['a text delta', delta(1, 'a')],
    ['a text delta with extra fields (logprobs, obfuscation)', { ...delta(1, 'a'), logprobs: [], obfuscation: 'xyz' }],
    ['a text delta without sequence_number', { ...delta(1, 'a'), sequence_number: undefined }],
    ['response.created', lifecycle('response.created', 0)],
    ['response.completed with both usage shapes', lifecycle('response.completed', 9, { usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3, prompt_tokens: 1, completion_tokens: 2 } })],
    ['an output item', itemAdded],
    ['a content part', contentPart],
    ['text done', textDone],
    ['a refusal delta', { type: 'response.refusal.delta', sequence_number: 1, item_id: 'm', output_index: 0, content_index: 0, delta: 'no' }],
    ['a function call arguments delta', { type: 'response.function_call_arguments.delta', sequence_number: 1, item_id: 'fc', output_index: 0, delta: '{"a"' }],
    ['an unknown type', { type: 'response.future_thing.delta', sequence_number: 4, anything: { goes: true } }],
    ['an unknown type without sequence_number', { type: 'response.audio.delta', delta: 'AAAA' }],
    ['a flat error', { type: 'error', sequence_number: 1, code: 'x', message: 'y', param: null }],
    ['a nested error', { type: 'error', sequence_number: 1, error: { type: 'server_error', code: null, message: 'y', param: null } }],
  ])('accepts %s as it came', (_, event) => {
    const v = verdict(event)
    expect(v.ok).toBe(true)
    expect((v as { value: unknown }).value).toEqual(event)
  })

  it.each([
    ['a delta that is not a string', { ...delta(1, 'a'), delta: 42 }, 'delta'],
    ['a null delta', { ...delta(1, 'a'), delta: null }, 'delta'],
    ['a delta without item_id', { ...delta(1, 'a'), item_id: undefined }, 'item_id'],
    ['a fractional output_index', { ...delta(1, 'a'), output_index: 0.5 }, 'output_index'],
    ['a string content_index', { ...delta(1, 'a'), content_index: '0' }, 'content_index'],
    ['a string sequence_number', { ...delta(1, 'a'), sequence_number: '1' }, 'sequence_number'],
    ['a string sequence_number on an unknown type', { type: 'response.future_thing', sequence_number: '1' }, 'sequence_number'],
    ['text done without text', { ...textDone, text: undefined }, 'text'],
    ['a content part without its part', { ...contentPart, part: undefined }, 'part'],
    ['an output item without output_index', { ...itemAdded, output_index: undefined }, 'output_index'],
    ['a lifecycle event with a broken response', { ...lifecycle('response.completed', 9), response: { id: 'r', object: 'response' } }, 'response.created_at'],
    ['an error event with a numeric message', { type: 'error', sequence_number: 1, code: 'x', message: 5 }, 'message'],
  ])('refuses %s, naming the field', (_, event, path) => {
    const v = verdict(event)
    expect(v.ok).toBe(false)
    expect((v as { paths: string[] }).paths).toContain(path)
    expect((v as { payload: unknown }).payload).toEqual(event)
  })

  it.each([[null], ['text'], [42], [{}], [{ type: 7 }], [[delta(1, 'a')]]])('refuses a payload that is not an event: %j', (payload) => {
    expect(verdict(payload).ok).toBe(false)
  })

  it('refuses a delta whose type is a list holding a known type, rather than taking it for that type', () => {
    const v = verdict({ ...delta(1, 'a'), type: ['response.output_text.delta'] })
    expect(v.ok).toBe(false)
    expect((v as { paths: string[] }).paths).toEqual(['type'])
  })

  it.each([[null], [{}], [{ sequence_number: 1, delta: 'a' }]])('refuses %j, a payload without a type', (payload) => {
    expect(() => parseStreamEvent(payload)).toThrow(expect.objectContaining({ name: 'ValidationError' }))
  })
})

describe('stream event validation in a freshly loaded module', () => {
  afterEach(() => {
    vi.doUnmock('../../src/validation/fastCheck.js')
    vi.resetModules()
  })

  /** The paths of the issues of the ValidationError (of any loaded copy) that `run` throws. */
  function issuePaths(run: () => unknown): string[] {
    try {
      run()
    } catch (err) {
      expect(isValidationError(err), String(err)).toBe(true)
      return (err as ValidationError).issues.map((i) => i.path)
    }
    throw new Error('accepted')
  }

  /** `parseStreamEvent` of a copy of the module that has validated nothing yet. */
  async function fresh(): Promise<typeof parseStreamEvent> {
    vi.resetModules()
    return (await import('../../src/validation/streamEvents.js')).parseStreamEvent
  }

  // The first payload of a stream has no previous type to be compared with.
  it.each([
    [{}, ['type']],
    [{ sequence_number: 0, delta: 'a' }, ['type']],
    [null, ['']],
  ])('refuses %j as the very first payload, naming the missing type', async (payload, paths) => {
    const parse = await fresh()
    expect(issuePaths(() => parse(payload))).toEqual(paths)
  })

  // The browser build has no derived checks: every payload is parsed by the schemas alone.
  describe('with the browser build’s checks', () => {
    async function browser(): Promise<typeof parseStreamEvent> {
      vi.resetModules()
      vi.doMock('../../src/validation/fastCheck.js', () => import('../../src/validation/fastCheck.browser.js'))
      return (await import('../../src/validation/streamEvents.js')).parseStreamEvent
    }

    it('accepts valid events as they came, unknown fields and unknown types included', async () => {
      const parse = await browser()
      for (const event of [delta(1, 'a'), { ...delta(2, 'b'), obfuscation: 'xyz' }, lifecycle('response.completed', 9), itemAdded, { type: 'response.future_thing', anything: 1 }]) {
        expect(parse(event)).toEqual(event)
      }
    })

    it('refuses the same broken events, naming the same fields', async () => {
      const parse = await browser()
      const paths = (event: unknown) => issuePaths(() => parse(event))
      expect(paths({ ...delta(1, 'a'), delta: 42 })).toEqual(['delta'])
      expect(paths({ ...textDone, text: undefined })).toEqual(['text'])
      expect(paths({ type: 'response.future_thing', sequence_number: '1' })).toEqual(['sequence_number'])
      expect(paths({})).toEqual(['type'])
    })
  })
})
