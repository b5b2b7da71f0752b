import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { isInvalidRequestError, type InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isResponseRefusedError, type ResponseRefusedError } from '../../src/errors/ResponseRefusedError.js'
import { isValidationError, type ValidationError } from '../../src/errors/ValidationError.js'
import { jsonSchemaFormat } from '../../src/jsonSchemaFormat.js'
import { parsedOutput } from '../../src/operators/parsedOutput.js'
import { refusal } from '../../src/operators/refusal.js'
import { responses$ } from '../../src/responses$.js'
import { all, failure } from './replay.js'
import { clientOf, simulator } from './sim.js'

const Book = v.object({
  title: v.string(),
  year: v.pipe(v.number(), v.integer(), v.minValue(1450)),
  genres: v.array(v.picklist(['novel', 'poetry', 'drama'])),
  rating: v.nullable(v.number()),
})
const ask = (format: unknown, stream?: true) => ({ model: 'gpt-4.1-mini', input: 'Recommend a book about the sea', text: { format }, ...(stream ? { stream } : {}) })

describe('structured output against the simulator', () => {
  it('validates the answer into a typed object, streamed or not', async () => {
    const sim = await simulator()
    const format = jsonSchemaFormat(Book, 'book')
    for (const stream of [undefined, true] as const) {
      const [book] = await all(responses$(clientOf(sim), ask(format, stream)).pipe(parsedOutput(Book)))
      // Typed: `book.year` is a number, `book.genres` an array of the three words.
      expect([book!.title, book!.year, book!.genres, book!.rating]).toEqual(['the sea', 1450, ['novel'], 0.5])
    }
  })

  it('ends in ValidationError, naming the field, when the answer breaks a rule JSON Schema cannot carry', async () => {
    const sim = await simulator()
    const Shouting = v.object({ ...Book.entries, title: v.pipe(v.string(), v.check((t) => t === t.toUpperCase(), 'must be in capitals')) })
    const err = (await failure(responses$(clientOf(sim), ask(jsonSchemaFormat(Shouting, 'book'), true)).pipe(parsedOutput(Shouting)))) as ValidationError
    expect(isValidationError(err)).toBe(true)
    expect(err.issues).toEqual([{ path: 'title', message: 'must be in capitals' }])
    expect(err.payload).toBe('{"title":"the sea","year":1450,"genres":["novel"],"rating":0.5}')
  })

  it('ends in ValidationError when the text is not JSON at all', async () => {
    const sim = await simulator()
    const err = (await failure(responses$(clientOf(sim), { model: 'gpt-4.1-mini', input: 'Say hi' }).pipe(parsedOutput(Book)))) as ValidationError
    expect(err.issues.map((i) => i.path)).toEqual([''])
    expect(err.payload).toBe('Hi there! How can I help you today?')
  })

  it('ends in ResponseRefusedError for a refusal; refusal() reads it', async () => {
    const sim = await simulator()
    const body = { ...ask(jsonSchemaFormat(Book, 'book'), true), input: '[refuse] A book about lock picking' }
    const err = (await failure(responses$(clientOf(sim), body).pipe(parsedOutput(Book)))) as ResponseRefusedError
    expect(isResponseRefusedError(err)).toBe(true)
    expect(err.refusal).toBe("I'm sorry, but I can't help with that request.")
    expect(err.responseId).toBe(sim.responses[0]!.id)
    expect((await all(responses$(clientOf(sim), body).pipe(refusal()))).join('')).toBe("I'm sorry, but I can't help with that request.")
  })
})

describe('jsonSchemaFormat', () => {
  it('writes the schema the model must follow: closed objects, every property required, no $schema', () => {
    const Order = v.object({ items: v.array(v.object({ sku: v.string(), qty: v.number() })), note: v.nullable(v.string()) })
    expect(jsonSchemaFormat(Order, 'order', { description: 'An order' })).toEqual({
      type: 'json_schema',
      name: 'order',
      description: 'An order',
      strict: true,
      schema: {
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'number' } }, required: ['sku', 'qty'], additionalProperties: false } },
          note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
        required: ['items', 'note'],
        additionalProperties: false,
      },
    })
  })

  it('describes the input of a schema that transforms: the JSON the model writes', () => {
    const Stamp = v.object({ at: v.pipe(v.string(), v.transform((s) => new Date(s))) })
    expect(jsonSchemaFormat(Stamp, 'stamp').schema).toMatchObject({ properties: { at: { type: 'string' } } })
  })

  it.each([
    ['an optional property in strict mode', v.object({ a: v.optional(v.string()) }), 'book', 'schema.a'],
    ['a schema JSON Schema cannot hold', v.object({ at: v.date() }), 'book', 'schema'],
    ['a name with spaces', v.object({ a: v.string() }), 'my book', 'name'],
  ])('refuses %s with InvalidRequestError', (_, schema, name, path) => {
    let err: unknown
    try {
      jsonSchemaFormat(schema, name)
    } catch (e) {
      err = e
    }
    expect(isInvalidRequestError(err) && (err as InvalidRequestError).issues.map((i) => i.path)).toEqual([path])
  })

  it('allows optional properties when strict is off', () => {
    expect(jsonSchemaFormat(v.object({ a: v.optional(v.string()) }), 'loose', { strict: false })).toMatchObject({ strict: false, schema: { required: [] } })
  })
})
