import { isDeepStrictEqual } from 'node:util'
import * as v from 'valibot'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { compileCheck } from '../../src/validation/fastCheck.js'
import { ResponseSchema } from '../../src/validation/response.js'
import { ResponseRequestSchema } from '../../src/validation/responseRequest.js'
import { streamEventSchema } from '../../src/validation/streamEvents.js'
import { TaskCreatedSchema, TaskReplySchemas } from '../../src/validation/task.js'
import { TextToVideoRequestLooseSchema, TextToVideoRequestSchema } from '../../src/validation/textToVideoRequest.js'

const ODD: unknown[] = [undefined, null, '', 'x', 'a'.repeat(600), 0, -1, 1, 1.5, 2.5, 21, 2147483648, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], [1], ['s'], {}, { type: 'x' }]
const T = '2026-01-01T00:00:00Z'
const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi', annotations: [] }, { type: 'refusal', refusal: 'no' }] }
const response = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  model: 'm',
  status: 'completed',
  output: [message, { type: 'reasoning', id: 'rs_1' }],
  output_text: 'hi',
  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 } },
  error: null,
}

/** Every value once as given, then with each field (at any depth) replaced by each odd value, or removed. */
function* mutations(value: unknown, depth = 0): Generator<unknown> {
  yield value
  if (depth > 3 || !value || typeof value !== 'object') return
  const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value)
  for (const [key, inner] of entries) {
    const rebuild = (replacement: unknown, remove = false) => {
      const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as object) }
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the field under test, by name
      if (remove && !Array.isArray(copy)) delete copy[key]
      else (copy as Record<string, unknown>)[key] = replacement
      return copy
    }
    yield rebuild(undefined, true)
    for (const odd of ODD) yield rebuild(odd)
    for (const deeper of mutations(inner, depth + 1)) if (deeper !== inner) yield rebuild(deeper)
  }
}

const CASES: [string, v.GenericSchema<unknown, unknown>, unknown[]][] = [
  ['loose text-to-video request', TextToVideoRequestLooseSchema, [
    { prompt: 'p', negative_prompt: 'n', audio: null, audio_url: 'https://a.test/x.mp3', size: '1280*720', duration: 10, prompt_extend: false, seed: 2147483647, more: true },
    { prompt: 'p', audio_url: 'not a uri' },
  ]],
  ['response', ResponseSchema, [response, { ...response, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3, output_tokens_details: { reasoning_tokens: 0 } } }]],
  ['text delta event', streamEventSchema('response.output_text.delta'), [{ type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'hé', logprobs: [] }]],
  ['lifecycle event', streamEventSchema('response.completed'), [{ type: 'response.completed', sequence_number: 9, response }]],
  ['output item event', streamEventSchema('response.output_item.done'), [{ type: 'response.output_item.done', sequence_number: 7, output_index: 0, item: message }]],
  ['content part event', streamEventSchema('response.content_part.added'), [{ type: 'response.content_part.added', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }]],
  ['error event', streamEventSchema('error'), [{ type: 'error', code: 'x', message: 'm', param: null }, { type: 'error', error: { type: 'server_error', code: 500, message: 'm' } }]],
  ['unknown event', streamEventSchema('response.future.delta'), [{ type: 'response.future.delta', sequence_number: 1, anything: [1] }]],
  ['response request (metadata read by its raw check)', ResponseRequestSchema, [
    { model: 'm', input: [{ role: 'user', content: 'hi' }], metadata: { a: 'b', ['k'.repeat(64)]: 'v'.repeat(512) }, temperature: 1, tool_choice: 'auto', include: ['x'], truncation: 'auto', store: null },
    { model: 'm', input: 'hi', metadata: { a: 'b', c: 'd' }, max_output_tokens: 16, tools: [{ type: 'function', name: 'f' }] },
    { model: 'm', metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v'])) },
    { model: 'm', metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
    { model: 'm', metadata: { ['k'.repeat(65)]: 'v', b: 'v'.repeat(513) } },
  ]],
  ['task created', TaskCreatedSchema, [{ task_info: { id: '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11', created_at: T, updated_at: '2026-01-01T00:00:00.123456Z' } }]],
]

/** Compares `check` with valibot on every mutation of `seeds`; the corpus must draw both answers. */
function agreesOnEveryMutation(check: ((value: unknown) => boolean) | undefined, schema: v.GenericSchema<unknown, unknown>, seeds: unknown[]): void {
  expect(check).toBeTypeOf('function')
  let accepted = 0
  let total = 0
  for (const seed of seeds) {
    for (const value of mutations(seed)) {
      total++
      const expected = v.is(schema, value)
      if (check!(value) !== expected) throw new Error(`disagrees (valibot says ${expected}) on ${JSON.stringify(value)}`)
      if (expected) accepted++
    }
  }
  // The corpus must exercise both answers, or the comparison proves nothing.
  expect(accepted).toBeGreaterThan(0)
  expect(total - accepted).toBeGreaterThan(0)
}

describe('compileCheck', () => {
  it.each(CASES)('agrees with valibot on every mutation of a %s', (_, schema, seeds) => {
    agreesOnEveryMutation(compileCheck(schema), schema, seeds)
  })

  it.each([
    ['a list of objects with a hole', v.array(v.looseObject({ type: v.string() })), [, { type: 'web_search' }]],
    ['a list of strings with a hole', v.array(v.string()), ['a', , 'b']],
    ['an output list with a hole', ResponseSchema, { ...response, output: [, message] }],
    ['a content list with a hole', ResponseSchema, { ...response, output: [{ ...message, content: [, { type: 'output_text', text: 'x' }] }] }],
  ])('refuses a sparse array, as valibot does: %s', (_, schema, value) => {
    expect(v.is(schema, value)).toBe(false)
    expect(compileCheck(schema)!(value)).toBe(false)
  })

  // JSON.parse makes `__proto__` an own key; a check that reads fields through the prototype would differ.
  it.each([
    ['a response whose usage is an own __proto__ key', ResponseSchema, JSON.parse(`{"id":"r","object":"response","created_at":1,"model":"m","status":"completed","output":[],"__proto__":{"usage":5}}`)],
    ['a response without output but with __proto__.output', ResponseSchema, JSON.parse(`{"id":"r","object":"response","created_at":1,"model":"m","status":"completed","__proto__":{"output":[]}}`)],
    ['a delta event with a constructor key', streamEventSchema('response.output_text.delta'), JSON.parse(`{"type":"response.output_text.delta","sequence_number":1,"item_id":"i","output_index":0,"content_index":0,"delta":"x","constructor":1}`)],
    ['a delta event whose delta sits under __proto__', streamEventSchema('response.output_text.delta'), JSON.parse(`{"type":"response.output_text.delta","sequence_number":1,"item_id":"i","output_index":0,"content_index":0,"__proto__":{"delta":"x"}}`)],
    ['a task created whose task_info sits under __proto__', TaskCreatedSchema, JSON.parse(`{"__proto__":{"task_info":{"id":"0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11","created_at":"${T}","updated_at":"${T}"}}}`)],
  ])('agrees with valibot on prototype keys: %s', (_, schema, value) => {
    expect(compileCheck(schema)!(value)).toBe(v.is(schema, value))
  })

  // A task reply's status in the newer vocabulary is rewritten: the check passes exactly the replies valibot returns unchanged.
  it.each([
    ['video', TaskReplySchemas.video, 'videos'],
    ['image', TaskReplySchemas.image, 'images'],
  ] as const)('passes a %s task reply exactly when valibot would return it unchanged; a newer status word goes to valibot', (_, schema, field) => {
    const check = compileCheck(schema)!
    const id = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
    const info = (status: string) => ({ id, status, created_at: T, updated_at: T })
    const seeds = [
      { task_info: info('pending') },
      { task_info: info('processing') },
      { task_info: info('running') },
      { task_info: info('queued') },
      { task_info: info('completed'), [field]: ['https://cdn.test/a.mp4'] },
      { task_info: info('succeeded'), [field]: ['https://cdn.test/a.mp4'] },
      { task_info: { ...info('failed'), error: { code: 1, title: 't', detail: 'd' } } },
    ]
    const answers = { unchanged: 0, rewritten: 0, refused: 0 }
    for (const seed of seeds) {
      for (const value of mutations(seed)) {
        const result = v.safeParse(schema, value)
        const unchanged = result.success && isDeepStrictEqual(result.output, value)
        if (check(value) !== unchanged) throw new Error(`disagrees (valibot: ${result.success ? (unchanged ? 'unchanged' : 'rewritten') : 'refused'}) on ${JSON.stringify(value)}`)
        answers[unchanged ? 'unchanged' : result.success ? 'rewritten' : 'refused']++
      }
    }
    expect(answers.unchanged).toBeGreaterThan(0)
    expect(answers.rewritten).toBeGreaterThan(0)
    expect(answers.refused).toBeGreaterThan(0)
  })

  it('reads a raw check only where valibot shows it the value itself, and never an async one', () => {
    const atMostOneKey = v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
      if (dataset.typed && Object.keys(dataset.value).length > 1) addIssue({ message: 'one key at most' })
    })
    const onInput = v.pipe(v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null), atMostOneKey)
    const onCopy = v.pipe(v.looseObject({}), atMostOneKey)
    const value = JSON.parse('{"constructor":1,"a":1}') as object
    expect(compileCheck(onInput)!(value)).toBe(v.is(onInput, value))
    // Valibot's copy leaves out `constructor`, so its raw check sees one key where the value has two.
    expect(v.is(onCopy, value)).toBe(true)
    expect(compileCheck(onCopy)).toBeUndefined()
    const pending = v.pipeAsync(v.string(), v.rawCheckAsync(async () => {}))
    expect(compileCheck(pending as unknown as v.GenericSchema<unknown, unknown>)).toBeUndefined()
  })

  it('declines schemas whose output differs from their input, leaving them to valibot', () => {
    expect(compileCheck(TextToVideoRequestSchema)).toBeUndefined() // strict objects are not read
    expect(compileCheck(v.object({ a: v.string() }))).toBeUndefined() // plain objects strip keys
    expect(compileCheck(v.optional(v.string(), 'x'))).toBeUndefined() // defaults fill values in
  })
})

describe('compileCheck on the other schema kinds it reads', () => {
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)
  const SCALARS: unknown[] = [undefined, null, '', 'x', 'abcdef', '5', 0, 1, 2.5, 3, 5, 7.5, 10, -1, Number.NaN, true, [], {}]
  const READ: [string, v.GenericSchema<unknown, unknown>, unknown[]][] = [
    ['a nullable string', v.nullable(v.string()), SCALARS],
    ['a nullable pipe', v.nullable(v.pipe(v.number(), v.minValue(1))), SCALARS],
    ['a nullish number', v.nullish(v.number()), SCALARS],
    ['an optional number', v.optional(v.number()), SCALARS],
    ['an optional string', v.optional(v.string()), SCALARS],
    ['a nullish string', v.nullish(v.string()), SCALARS],
    ['a length range with four rules', v.pipe(v.string(), v.minLength(2), v.maxLength(5), v.regex(/^[a-z]*$/), v.nonEmpty()), [...SCALARS, 'a', 'ab', 'abcde', 'abcdef', 'aB', 'zz']],
    ['a minimum length', v.pipe(v.string(), v.minLength(2)), [...SCALARS, 'a', 'ab']],
    ['a maximum length', v.pipe(v.string(), v.maxLength(2)), [...SCALARS, 'ab', 'abc']],
    ['a number whose first rule is a bound', v.pipe(v.number(), v.minValue(0)), SCALARS],
    ['a number whose first rule is a bound, then integer', v.pipe(v.number(), v.maxValue(9), v.integer()), SCALARS],
    ['an integer rule on a list of numbers', v.pipe(v.picklist([5, 7.5, 10]), v.integer()), SCALARS],
    ['an integer rule after a pipe of its own', v.pipe(v.pipe(v.number(), v.minValue(5)), v.integer()), SCALARS],
    ['a described string', v.pipe(v.string(), v.description('a name'), v.title('Name')), SCALARS],
    ['an object behind an object check', v.pipe(v.custom<Record<string, unknown>>(isObject), v.looseObject({ a: v.string() })), [...SCALARS, { a: 'x' }, { a: 1 }, [], { b: 'x' }]],
    ['a check over two fields', v.pipe(v.looseObject({ a: v.number(), b: v.number() }), v.forward(v.partialCheck([['a'], ['b']], (x) => x.a < x.b), ['b'])), [
      ...SCALARS, { a: 1, b: 2 }, { a: 2, b: 1 }, { a: 1 }, { a: 1, b: '2' },
    ]],
    ['a record', v.record(v.pipe(v.string(), v.maxLength(3)), v.number()), [
      ...SCALARS, { a: 1 }, { abcd: 1 }, { a: '1' }, { a: 1, b: Number.NaN },
      JSON.parse('{"__proto__":"x","a":1}'), JSON.parse('{"constructor":"x"}'), JSON.parse('{"prototype":"x"}'), JSON.parse('{"__proto__":1,"long-key":1}'),
      Object.create({ inherited: 'x' }),
    ]],
  ]

  it.each(READ)('agrees with valibot on %s', (_, schema, values) => {
    const check = compileCheck(schema)
    expect(check).toBeTypeOf('function')
    const answers = values.map((value) => {
      const expected = v.is(schema, value)
      expect(check!(value), `on ${String(JSON.stringify(value))}`).toBe(expected)
      return expected
    })
    expect(answers).toContain(true)
    expect(answers).toContain(false)
  })

  it('declines a variant or record it cannot read whole, leaving it to valibot', () => {
    const nested = v.variant('type', [
      v.variant('kind', [v.looseObject({ type: v.literal('a'), kind: v.literal('x') }), v.looseObject({ type: v.literal('a'), kind: v.literal('y') })]),
      v.looseObject({ type: v.literal('b') }),
    ])
    expect(compileCheck(nested)).toBeUndefined()
    const rewriting = v.variant('type', [v.looseObject({ type: v.literal('a'), n: v.pipe(v.string(), v.transform(Number)) }), v.looseObject({ type: v.literal('b') })])
    expect(compileCheck(rewriting)).toBeUndefined()
    expect(compileCheck(v.record(v.string(), v.pipe(v.string(), v.transform(Number))))).toBeUndefined()
    expect(compileCheck(v.record(v.pipe(v.string(), v.trim()), v.string()))).toBeUndefined()
  })

  it('declines a pipe whose schema it does not read, even when it reads the rules after it', () => {
    expect(compileCheck(v.pipe(v.bigint(), v.minValue(1n)))).toBeUndefined()
    expect(compileCheck(v.pipe(v.date(), v.check(() => true)))).toBeUndefined()
  })

  it('reads a union up to its first option that rewrites: what those options pass is taken as it is, the rest goes to valibot', () => {
    const upper = v.pipe(v.string(), v.toUpperCase())
    const check = compileCheck(v.union([v.literal('A'), v.number(), upper, v.boolean()]))!
    expect([check('A'), check(1), check('a'), check('B'), check(true), check(null)]).toEqual([true, true, false, false, false, false])
    // 'a' is rewritten by the third option; `true`, taken by the fourth, is left to valibot too: no option after one that rewrites is read.
    expect(v.parse(v.union([v.literal('A'), v.number(), upper, v.boolean()]), 'a')).toBe('A')
    expect(compileCheck(v.union([upper, v.literal('A')]))).toBeUndefined()
  })
})

// Where strings may not become code (`--disallow-code-generation-from-strings`, a worker runtime),
// object checks fall back to a loop over the keys: the same answers, read more slowly.
describe('compileCheck where code may not be made from strings', () => {
  let loopCheck: typeof compileCheck
  beforeAll(async () => {
    vi.resetModules()
    vi.stubGlobal('Function', function refused() {
      throw new EvalError('Code generation from strings disallowed for this context')
    })
    try {
      ;({ compileCheck: loopCheck } = await import('../../src/validation/fastCheck.js'))
    } finally {
      vi.unstubAllGlobals()
    }
  })

  // Key names become source text where code may be made: a name that reads as code must stay a name.
  const HOSTILE = v.looseObject({ 'a"]) || true || (v["': v.string(), '\u2028': v.number(), '\ud800': v.boolean(), '`${x}`\\': v.string(), constructor: v.optional(v.string()) })
  const hostileSeed = { 'a"]) || true || (v["': 's', '\u2028': 1, '\ud800': true, '`${x}`\\': 't', constructor: 'c' }

  it.each([
    ['written out', () => compileCheck],
    ['a loop', () => loopCheck],
  ])('object checks %s read key names that look like code as names', (_, which) => {
    agreesOnEveryMutation(which()(HOSTILE), HOSTILE, [hostileSeed])
  })

  it.each(CASES)('agrees with valibot on every mutation of a %s', (_, schema, seeds) => {
    agreesOnEveryMutation(loopCheck(schema), schema, seeds)
  })
})
