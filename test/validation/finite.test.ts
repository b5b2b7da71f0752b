import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { serializeRequest } from '../../src/validation/check.js'
import { mayHoldNonFinite, stringifyFinite } from '../../src/validation/finite.js'
import { ResponseRequestSchema } from '../../src/validation/responseRequest.js'
import { TextToVideoRequestSchema } from '../../src/validation/textToVideoRequest.js'

const AnyObject = v.looseObject({})

function refusal(schema: v.GenericSchema<unknown, unknown>, body: unknown): InvalidRequestError {
  try {
    serializeRequest(schema, body, 'test body')
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    return err as InvalidRequestError
  }
  throw new Error('serializeRequest accepted the body')
}

describe('serializeRequest refuses a number JSON cannot carry (it would be sent as null)', () => {
  it.each([
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
    ['-Infinity', Number.NEGATIVE_INFINITY, '-Infinity'],
  ])('%s as a response request’s temperature, naming the field and the value', (_, value, shown) => {
    const err = refusal(ResponseRequestSchema, { model: 'm', input: 'hi', temperature: value })
    expect(err.issues).toEqual([{ path: 'temperature', message: `must be a finite number (got ${shown})` }])
    expect(err.message).toBe(`Invalid test body: temperature: must be a finite number (got ${shown}). Nothing was sent.`)
  })

  it('NaN as a text-to-video seed, with the same message as any other body', () => {
    expect(refusal(TextToVideoRequestSchema, { prompt: 'p', seed: Number.NaN }).issues).toEqual([{ path: 'seed', message: 'must be a finite number (got NaN)' }])
  })

  it('anywhere in a free-form body: nested in objects and lists, each one named by its dotted path', () => {
    const body = { prompt: 'p', metadata: { scores: [1, 2, Number.NaN], deep: [{ x: [Number.NEGATIVE_INFINITY] }] }, n: Number.POSITIVE_INFINITY }
    expect(refusal(AnyObject, body).issues).toEqual([
      { path: 'metadata.scores.2', message: 'must be a finite number (got NaN)' },
      { path: 'metadata.deep.0.x.0', message: 'must be a finite number (got -Infinity)' },
      { path: 'n', message: 'must be a finite number (got Infinity)' },
    ])
  })

  it('in a field of a nullable rule, which the null it would become passes', () => {
    const Nullable = v.object({ n: v.nullable(v.number()) })
    expect(serializeRequest(Nullable, { n: null })).toBe('{"n":null}')
    expect(refusal(Nullable, { n: Number.NaN }).issues).toEqual([{ path: 'n', message: 'must be a finite number (got NaN)' }])
  })

  it('made by a toJSON, or held by a Number object, as it is serialised', () => {
    expect(refusal(AnyObject, { a: { toJSON: () => Number.NaN } }).issues).toEqual([{ path: 'a', message: 'must be a finite number (got NaN)' }])
    expect(refusal(AnyObject, { list: [{ toJSON: () => ({ v: Number.POSITIVE_INFINITY }) }] }).issues.map((i) => i.path)).toEqual(['list.0.v'])
    expect(refusal(AnyObject, { a: new Number(Number.NaN) }).issues.map((i) => i.path)).toEqual(['a'])
  })

  it('names each place of an object met twice by its own path', () => {
    const shared = { x: Number.NaN }
    expect(refusal(AnyObject, { a: shared, b: [shared] }).issues.map((i) => i.path)).toEqual(['a.x', 'b.0.x'])
  })

  it('sends finite numbers, nulls and text that says null as they are', () => {
    const body = { a: 1.5, b: -0, c: Number.MAX_VALUE, d: null, e: ['null', null, 0], note: 'NaN or null', gone: undefined, f: () => 1 }
    expect(serializeRequest(AnyObject, body)).toBe(JSON.stringify(body))
  })

  it('sends the text it checked, even when a toJSON answers differently each time', () => {
    let calls = 0
    const fickle = { toJSON: () => (calls++ === 0 ? null : 7) }
    // The first serialisation holds a null, so the body is serialised again: the second text is the one checked and sent.
    expect(serializeRequest(AnyObject, { fickle })).toBe('{"fickle":7}')
  })

  it('refuses a body nested too deeply for its depth, not for the second serialisation’s stack', () => {
    // As deep as a plain serialisation still takes here (with a margin): deeper than one with a replacer takes.
    const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}null${']'.repeat(depth)}`)
    const fits = (depth: number) => {
      try {
        return JSON.stringify(nested(depth)) !== undefined
      } catch {
        return false
      }
    }
    let low = 512
    let high = 200_000
    while (high - low > 64) {
      const mid = Math.floor((low + high) / 2)
      if (fits(mid)) low = mid
      else high = mid
    }
    expect(refusal(AnyObject, { deep: nested(Math.floor(low * 0.9)) }).issues).toEqual([{ path: '', message: 'cannot be sent as JSON (nested deeper than 512 levels)' }])
  })
})

describe('the finite check’s parts', () => {
  it('mayHoldNonFinite: only text with a null can hold a number that was not finite', () => {
    expect(mayHoldNonFinite(JSON.stringify({ a: 1, b: 'x' }))).toBe(false)
    expect(mayHoldNonFinite(JSON.stringify({ a: Number.NaN }))).toBe(true)
    expect(mayHoldNonFinite(JSON.stringify([Number.POSITIVE_INFINITY]))).toBe(true)
  })

  it('stringifyFinite: the same text as JSON.stringify, with the body itself named by an empty path', () => {
    const body = { a: [1, null, { b: 'c' }], d: Number.NaN }
    expect(stringifyFinite(body).text).toBe(JSON.stringify(body))
    expect(stringifyFinite(Number.NaN)).toEqual({ text: 'null', issues: [{ path: '', message: 'must be a finite number (got NaN)' }] })
    expect(stringifyFinite(undefined)).toEqual({ text: undefined, issues: [] })
  })
})
