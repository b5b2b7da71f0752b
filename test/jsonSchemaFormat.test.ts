import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { jsonSchemaFormat } from '../src/jsonSchemaFormat.js'

/** The error `jsonSchemaFormat` throws for these arguments (fails when it returns). */
function refusal(...args: Parameters<typeof jsonSchemaFormat>): InvalidRequestError {
  try {
    jsonSchemaFormat(...args)
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    return err as InvalidRequestError
  }
  throw new Error('jsonSchemaFormat returned')
}

const closed = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false })
const OPTIONAL = 'is optional, which strict mode does not allow: make it v.nullable(…), or pass strict: false'

describe('jsonSchemaFormat', () => {
  it('writes the schema as a strict json_schema format under its name, without $schema', () => {
    const Book = v.object({ title: v.string(), year: v.number() })
    expect(jsonSchemaFormat(Book, 'book')).toEqual({ type: 'json_schema', name: 'book', schema: closed({ title: { type: 'string' }, year: { type: 'number' } }), strict: true })
  })

  it('adds the description when there is one, and strict: false when asked', () => {
    expect(jsonSchemaFormat(v.object({ a: v.optional(v.string()) }), 'n', { strict: false, description: 'A note' })).toEqual({
      type: 'json_schema',
      name: 'n',
      schema: { type: 'object', properties: { a: { type: 'string' } }, required: [], additionalProperties: false },
      strict: false,
      description: 'A note',
    })
  })

  it('closes every object: in properties, array items, tuples, unions, variants, intersections and definitions', () => {
    const Node: v.GenericSchema = v.object({ name: v.string(), kids: v.array(v.lazy(() => Node)) })
    const schema = v.object({
      list: v.array(v.object({ b: v.string() })),
      pair: v.tuple([v.object({ x: v.string() })]),
      either: v.union([v.object({ d: v.number() }), v.null()]),
      kind: v.variant('k', [v.object({ k: v.literal('a') }), v.object({ k: v.literal('b') })]),
      both: v.intersect([v.object({ p: v.string() }), v.object({ q: v.string() })]),
      tree: Node,
    })
    const tree = closed({ name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/0' } } })
    expect(jsonSchemaFormat(schema, 'all').schema).toEqual({
      ...closed({
        list: { type: 'array', items: closed({ b: { type: 'string' } }) },
        pair: { type: 'array', items: [closed({ x: { type: 'string' } })], minItems: 1 },
        either: { anyOf: [closed({ d: { type: 'number' } }), { type: 'null' }] },
        kind: { oneOf: [closed({ k: { const: 'a' } }), closed({ k: { const: 'b' } })] },
        both: { allOf: [closed({ p: { type: 'string' } }), closed({ q: { type: 'string' } })] },
        tree,
      }),
      $defs: { '0': tree },
    })
  })

  it('leaves the values a record allows as they are (a record is an object of any keys)', () => {
    expect(jsonSchemaFormat(v.record(v.string(), v.number()), 'r', { strict: false }).schema).toEqual({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } })
    expect(jsonSchemaFormat(v.record(v.string(), v.any()), 'r', { strict: false }).schema).toEqual({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} })
  })

  it('keeps the rest of an object with rest when not strict', () => {
    expect(jsonSchemaFormat(v.objectWithRest({ a: v.string() }, v.number()), 'r', { strict: false }).schema).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: { type: 'number' } })
  })

  it('closes the objects inside a record’s values and a rest', () => {
    const Entry = v.object({ a: v.string() })
    expect(jsonSchemaFormat(v.record(v.string(), Entry), 'r', { strict: false }).schema.additionalProperties).toEqual(closed({ a: { type: 'string' } }))
    expect(jsonSchemaFormat(v.objectWithRest({ n: v.number() }, Entry), 'r', { strict: false }).schema.additionalProperties).toEqual(closed({ a: { type: 'string' } }))
    expect(jsonSchemaFormat(v.tupleWithRest([v.number()], Entry), 't', { strict: false }).schema.additionalItems).toEqual(closed({ a: { type: 'string' } }))
  })

  it('refuses, in strict mode, an object of keys of any name, and the optional properties inside it', () => {
    const RECORD = 'takes keys of any name (v.record or a rest), which strict mode does not allow: name its keys with v.object(…), or pass strict: false'
    const err = refusal(v.object({ tags: v.record(v.string(), v.object({ note: v.optional(v.string()) })) }), 'r')
    expect(err.issues.map((i) => [i.path, i.message])).toEqual([
      ['schema.tags', RECORD],
      ['schema.tags.note', OPTIONAL],
    ])
    expect(refusal(v.objectWithRest({ a: v.string() }, v.number()), 'r').issues.map((i) => [i.path, i.message])).toEqual([['schema', RECORD]])
    expect(refusal(v.tupleWithRest([v.number()], v.object({ b: v.optional(v.number()) })), 't').issues.map((i) => [i.path, i.message])).toEqual([['schema.b', OPTIONAL]])
  })

  it('closes an object declared as one only through metadata', () => {
    expect(jsonSchemaFormat(v.pipe(v.unknown(), v.metadata({ type: 'object' })), 'o').schema).toEqual({ type: 'object', additionalProperties: false })
  })

  it('leaves out checks JSON Schema cannot state', () => {
    const Shouting = v.object({ title: v.pipe(v.string(), v.check((t) => t === t.toUpperCase(), 'capitals')) })
    expect(jsonSchemaFormat(Shouting, 'shout').schema).toEqual(closed({ title: { type: 'string' } }))
  })

  it('refuses, in strict mode, every optional property, naming its path wherever it is', () => {
    const schema = v.object({
      a: v.optional(v.string()),
      list: v.array(v.object({ c: v.optional(v.number()) })),
      pair: v.tuple([v.string(), v.object({ x: v.optional(v.string()) })]),
      either: v.union([v.object({ u: v.optional(v.string()) }), v.null()]),
      kept: v.nullable(v.string()),
    })
    const err = refusal(schema, 'n')
    expect(err.issues).toEqual([
      { path: 'schema.a', message: OPTIONAL },
      { path: 'schema.list.c', message: OPTIONAL },
      { path: 'schema.pair[1].x', message: OPTIONAL },
      { path: 'schema.either[0].u', message: OPTIONAL },
    ])
    expect(err.message).toBe(
      `Invalid structured output format: schema.a: ${OPTIONAL}; schema.list.c: ${OPTIONAL}; schema.pair[1].x: ${OPTIONAL}; schema.either[0].u: ${OPTIONAL}. Nothing was sent.`,
    )
    expect(() => jsonSchemaFormat(schema, 'n', { strict: false })).not.toThrow()
  })

  it.each([
    ['empty', '', '""'],
    ['with a space', 'a book', '"a book"'],
    ['with a dot', 'a.b', '"a.b"'],
    ['65 characters long', 'x'.repeat(65), `"${'x'.repeat(65)}"`],
    ['not a string', 42, '42'],
  ])('refuses a name %s', (_, name, shown) => {
    const err = refusal(v.object({ a: v.string() }), name as string)
    expect(err.message).toBe(`Invalid structured output format: name: must be 1 to 64 letters, digits, "_" or "-" (got ${shown}). Nothing was sent.`)
    expect(err.issues).toEqual([{ path: 'name', message: `must be 1 to 64 letters, digits, "_" or "-" (got ${shown})` }])
  })

  it('takes a name of 64 letters, digits, "_" and "-"', () => {
    const name = `${'a'.repeat(60)}_9-Z`
    expect(jsonSchemaFormat(v.object({ a: v.string() }), name).name).toBe(name)
  })

  it('refuses a schema JSON Schema cannot hold, with the converter’s reason, and a bad name along with it', () => {
    const err = refusal(v.object({ when: v.date() }), 'bad name')
    expect(err.message).toBe(
      'Invalid structured output format: name: must be 1 to 64 letters, digits, "_" or "-" (got "bad name"); schema: cannot be written as JSON Schema: The "date" schema cannot be converted to JSON Schema. Nothing was sent.',
    )
  })
})
