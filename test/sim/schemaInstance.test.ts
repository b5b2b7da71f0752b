import { describe, expect, it } from 'vitest'
import { instanceOf } from '../../src/sim/schemaInstance.js'
import { problems } from './schemaCheck.js'

const SCHEMAS: [string, unknown][] = [
  ['a flat object', { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' }, ok: { type: 'boolean' } }, required: ['name', 'age', 'ok'] }],
  ['bounds', { type: 'object', properties: { a: { type: 'integer', minimum: 10, maximum: 11 }, b: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, c: { type: 'integer', exclusiveMinimum: 5 }, d: { type: 'number', maximum: -3 }, e: { type: 'integer', multipleOf: 5, minimum: 1 } } }],
  ['string lengths and formats', { type: 'object', properties: { short: { type: 'string', maxLength: 3 }, long: { type: 'string', minLength: 80 }, when: { type: 'string', format: 'date-time' }, mail: { type: 'string', format: 'email' } } }],
  ['enums and consts', { type: 'object', properties: { colour: { enum: ['red', 'green'] }, fixed: { const: 42 }, kind: { type: 'string', enum: [null, 'x'] } } }],
  ['nullable unions', { type: 'object', properties: { a: { type: ['string', 'null'] }, b: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 2 }] }, c: { type: 'string', nullable: true } } }],
  ['arrays', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 3, maxItems: 4 }, none: { type: 'array', maxItems: 0 }, pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }] } } }],
  ['nested refs', { type: 'object', properties: { scene: { $ref: '#/$defs/scene' }, list: { type: 'array', items: { $ref: '#/definitions/shot' } } }, $defs: { scene: { type: 'object', properties: { shot: { $ref: '#/definitions/shot' } }, required: ['shot'] } }, definitions: { shot: { type: 'object', properties: { seconds: { type: 'number', minimum: 1, maximum: 4 } }, required: ['seconds'] } } }],
  ['allOf', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }] }],
  ['oneOf at the top', { oneOf: [{ type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] }, { type: 'string' }] }],
  ['a property named __proto__', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}')],
  ['no type, properties only', { properties: { q: { type: 'string' } }, required: ['q'] }],
]

describe('simulator: JSON schema instances', () => {
  it.each(SCHEMAS)('writes a valid instance of %s', (_, schema) => {
    const value = instanceOf(schema, 'a lighthouse')
    expect(problems(schema, JSON.parse(JSON.stringify(value)))).toEqual([])
  })

  it('builds strings from the text: as is for names and places, tagged for other keys', () => {
    expect(instanceOf({ type: 'object', properties: { city: { type: 'string' }, summary: { type: 'string' } } }, 'Paris')).toEqual({ city: 'Paris', summary: 'summary: Paris' })
  })

  it('keeps a property named __proto__ as data', () => {
    const value = instanceOf({ type: 'object', properties: JSON.parse('{"__proto__":{"type":"integer"}}') }, 'x') as object
    expect(Object.hasOwn(value, '__proto__')).toBe(true)
    expect(JSON.stringify(value)).toBe('{"__proto__":3}')
  })
})
