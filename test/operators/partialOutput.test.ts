import { from, of, Subject } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ResponseRefusedError } from '../../src/errors/ResponseRefusedError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { jsonSchemaFormat } from '../../src/jsonSchemaFormat.js'
import { partialOutput, type PartialOutput } from '../../src/operators/partialOutput.js'
import { responses$ } from '../../src/responses$.js'
import type { Response } from '../../src/validation/response.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { all } from '../bots/replay.js'
import { clientOf, simulator } from '../bots/sim.js'
import { collect, observe } from '../helpers/collect.js'
import { delta, lifecycle, response } from '../helpers/fixtures.js'

const Book = v.object({ title: v.string(), year: v.number(), tags: v.array(v.string()) })
const ev = (e: Record<string, unknown>) => e as unknown as ResponseStreamEvent
/** One streamed response whose text is `pieces` joined, as it arrives. */
const round = (pieces: string[], id = 'resp_1', seq = 0) => [
  ev(lifecycle('response.created', seq, { id })),
  ...pieces.map((p, i) => ev(delta(seq + i + 1, p))),
  ev(lifecycle('response.completed', seq + pieces.length + 1, { id, output_text: pieces.join('') })),
]
const partials = <S extends v.GenericSchema<unknown, unknown>>(values: PartialOutput<S>[]) => values.filter((o) => !o.done).map((o) => o.partial)

describe('partialOutput', () => {
  it('shows the object growing: strings as written (even cut mid-escape), keys and numbers once whole', async () => {
    const pieces = ['{"ti', 'tle":"Caf\\u00', 'e9 cr', 'ème","year":14', '50,"tags":["a', '"]}']
    const { values, completed } = await collect(from(round(pieces)).pipe(partialOutput(Book)))
    expect(partials(values)).toEqual([
      {},
      { title: 'Caf' },
      { title: 'Café cr' },
      { title: 'Café crème' },
      { title: 'Café crème', year: 1450, tags: ['a'] },
    ])
    expect(values.at(-1)).toEqual({ done: true, value: { title: 'Café crème', year: 1450, tags: ['a'] } })
    expect(completed).toBe(true)
  })

  it('never shows a number before it is whole, in an object or an array', async () => {
    const Scores = v.object({ scores: v.array(v.number()) })
    const { values } = await collect(from(round(['{"scores":[1', '2', '3,4', '5', ']}'])).pipe(partialOutput(Scores)))
    expect(partials(values)).toEqual([{ scores: [] }, { scores: [123] }, { scores: [123, 45] }])
  })

  it('emits a partial only when the reading changed, never the same one twice in a row', async () => {
    const { values } = await collect(from(round(['{"title":"x"', ' ', ',', ' "ye', 'ar"', ':', ' 2', '0', '}'])).pipe(partialOutput(v.object({ title: v.string(), year: v.number() }))))
    expect(values).toEqual([
      { done: false, partial: { title: 'x' } },
      { done: false, partial: { title: 'x', year: 20 } },
      { done: true, value: { title: 'x', year: 20 } },
    ])
  })

  it('reads a long output less often as it grows, so the work stays linear, and still ends with all of it', async () => {
    const Numbers = v.object({ n: v.array(v.number()) })
    const text = JSON.stringify({ n: Array.from({ length: 5_000 }, (_, i) => i) })
    const pieces = text.match(/[^]{1,8}/g)!
    const { values } = await collect(from(round(pieces)).pipe(partialOutput(Numbers)))
    const shown = partials(values)
    // Every piece completes a number; reading on each would give about one partial per piece.
    expect(shown.length).toBeGreaterThan(300)
    expect(shown.length).toBeLessThan(pieces.length / 2)
    expect(shown.at(-1)!.n!.length).toBeGreaterThan(4_950)
    expect(values.at(-1)).toEqual({ done: true, value: { n: Array.from({ length: 5_000 }, (_, i) => i) } })
  })

  it('ends with the value validated by the schema: its output, transforms applied', async () => {
    const Loud = v.object({ title: v.pipe(v.string(), v.transform((t) => t.toUpperCase())) })
    const { values } = await collect(from(round(['{"title":"se', 'a"}'])).pipe(partialOutput(Loud)))
    expect(values).toEqual([
      { done: false, partial: { title: 'se' } },
      { done: false, partial: { title: 'sea' } },
      { done: true, value: { title: 'SEA' } },
    ])
  })

  it('ends JSON that breaks the schema in ValidationError naming the field, with the text, after its partials', async () => {
    const { values, error } = await collect(from(round(['{"title":"x",', '"year":"soon","tags":[]}'])).pipe(partialOutput(Book)))
    expect(partials(values)).toEqual([{ title: 'x' }, { title: 'x', year: 'soon', tags: [] }])
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: 'year' }], payload: '{"title":"x","year":"soon","tags":[]}' })
  })

  it('ends text that is not JSON in ValidationError, with no partial', async () => {
    const { values, error } = await collect(from(round(['1', ' book about', ' the sea'])).pipe(partialOutput(Book)))
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: '' }], payload: '1 book about the sea' })
    expect((error as Error).message).toMatch(/^Unexpected structured output from the gateway: is not JSON \(.+\)\.$/)
  })

  it('ends a refusal in ResponseRefusedError carrying it and the response id', async () => {
    const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
    const events = [
      ev(lifecycle('response.created', 0, { id: 'resp_r' })),
      ev({ type: 'response.refusal.delta', sequence_number: 1, ...at, delta: "I can't" }),
      ev({ type: 'response.refusal.delta', sequence_number: 2, ...at, delta: ' help.' }),
      ev(lifecycle('response.completed', 3, { id: 'resp_r' })),
    ]
    const { values, error } = await collect(from(events).pipe(partialOutput(Book)))
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(ResponseRefusedError)
    expect(error).toMatchObject({ refusal: "I can't help.", responseId: 'resp_r' })
  })

  it('reads only the last response of a stream of several (a tool loop), from its first partial', async () => {
    const events = [...round(['Let me check.'], 'resp_1'), ...round(['{"title":"s', 'ea","year":1,"tags":[]}'], 'resp_2', 10)]
    const { values, error } = await collect(from(events).pipe(partialOutput(Book)))
    expect(error).toBeUndefined()
    expect(values).toEqual([
      { done: false, partial: { title: 's' } },
      { done: false, partial: { title: 'sea', year: 1, tags: [] } },
      { done: true, value: { title: 'sea', year: 1, tags: [] } },
    ])
  })

  it('does not carry a refusal of an earlier response over to the last one', async () => {
    const refused = ev({ type: 'response.refusal.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'No.' })
    const events = [ev(lifecycle('response.created', 0)), refused, ...round([], 'resp_2', 10)]
    const { error } = await collect(from(events).pipe(partialOutput(Book)))
    expect(error).toBeInstanceOf(ValidationError)
  })

  it('gives only the final value for a Response (not streamed)', async () => {
    const text = '{"title":"sea","year":1,"tags":["x"]}'
    const { values } = await collect(of(response({ output_text: text }) as unknown as Response).pipe(partialOutput(Book)))
    expect(values).toEqual([{ done: true, value: { title: 'sea', year: 1, tags: ['x'] } }])
  })

  it('leaves nothing running once unsubscribed mid-stream', () => {
    const source = new Subject<ResponseStreamEvent>()
    const seen = observe(source.pipe(partialOutput(Book)))
    source.next(ev(lifecycle('response.created', 0)))
    source.next(ev(delta(1, '{"title":"s')))
    seen.subscription.unsubscribe()
    expect(source.observed).toBe(false)
    source.next(ev(delta(2, 'ea"')))
    source.complete()
    expect(seen.values).toEqual([{ done: false, partial: { title: 's' } }])
    expect(seen.completed).toBe(false)
  })
})

describe('partialOutput against the simulator', () => {
  it('shows the streamed answer growing, then the validated value', async () => {
    const sim = await simulator()
    const Answer = v.object({ title: v.string(), year: v.pipe(v.number(), v.integer(), v.minValue(1450)), genres: v.array(v.picklist(['novel', 'poetry', 'drama'])), rating: v.nullable(v.number()) })
    const body = { model: 'gpt-4.1-mini', input: 'Recommend a book about the sea', text: { format: jsonSchemaFormat(Answer, 'book') }, stream: true as const }
    const values = await all(responses$(clientOf(sim), body).pipe(partialOutput(Answer)))
    const shown = partials(values)
    expect(shown.length).toBeGreaterThanOrEqual(2)
    expect(new Set(shown.map((p) => JSON.stringify(p))).size).toBe(shown.length)
    // Each partial is a step towards the answer: titles are its prefixes, numbers only its own.
    for (const p of shown) {
      expect('the sea'.startsWith(p.title ?? '')).toBe(true)
      expect([undefined, 1450]).toContain(p.year)
      expect([undefined, 0.5]).toContain(p.rating)
    }
    expect(values.at(-1)).toEqual({ done: true, value: { title: 'the sea', year: 1450, genres: ['novel'], rating: 0.5 } })
  })
})
