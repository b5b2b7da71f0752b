import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { bool, characters, integerFrom, integerIn, numberIn, plainObject, text, textUpTo } from '../../src/validation/fields.js'

const messages = (schema: v.GenericSchema<unknown, unknown>, value: unknown) => {
  const result = v.safeParse(schema, value)
  return result.success ? [] : result.issues.map((i) => i.message)
}

describe('characters', () => {
  // A character is a code point: a high surrogate (D800–DBFF) followed by a
  // low one (DC00–DFFF) is one; anything else counts one per UTF-16 unit.
  it.each([
    ['the first pair (U+10000)', '\ud800\udc00', 1],
    ['the last pair (U+10FFFF)', '\udbff\udfff', 1],
    ['a pair after text', 'ab\ud83d\ude42', 3],
    ['a lone low surrogate after a letter', 'a\udc00', 2],
    ['a lone low surrogate after a BMP letter just below the surrogates', '\ud7ff\udc00', 2],
    ['two low surrogates', '\udc00\udc00', 2],
    ['a high surrogate before a letter', '\ud83da', 2],
    ['a high surrogate before the unit just past the low surrogates', '\ud83d\ue000', 2],
    ['a high surrogate before the unit just below the low surrogates', '\ud83d\udbff', 2],
    ['two high surrogates, then a low one', '\ud83d\ud83d\ude42', 2],
    ['a lone high surrogate at the end', 'ab\ud83d', 3],
  ])('counts %s', (_, value, n) => {
    expect(characters(value)).toBe(n)
  })
})

describe('field rules name the rule and the value', () => {
  it.each([
    ['numberIn, not a number', numberIn(0, 2), '1', ['must be a number']],
    ['numberIn, below', numberIn(0, 2), -0.5, ['must be from 0 to 2 (got -0.5)']],
    ['numberIn, above', numberIn(0, 2), 2.5, ['must be from 0 to 2 (got 2.5)']],
    ['integerIn, not a number', integerIn(0, 20), '3', ['must be a number']],
    ['integerIn, a fraction', integerIn(0, 20), 2.5, ['must be an integer from 0 to 20 (got 2.5)']],
    ['integerIn, below', integerIn(0, 20), -1, ['must be an integer from 0 to 20 (got -1)']],
    ['integerIn, above', integerIn(0, 20), 21, ['must be an integer from 0 to 20 (got 21)']],
    ['integerFrom, not a number', integerFrom(1), null, ['must be a number']],
    ['integerFrom, a fraction', integerFrom(1), 1.5, ['must be an integer of at least 1 (got 1.5)']],
    ['integerFrom, below', integerFrom(1), 0, ['must be an integer of at least 1 (got 0)']],
    ['textUpTo, not a string', textUpTo(3), 3, ['must be a string']],
    ['textUpTo, one past', textUpTo(3), 'abcd', ['must be at most 3 characters (got 4)']],
    ['textUpTo, one emoji past', textUpTo(3), '🙂🙂🙂🙂', ['must be at most 3 characters (got 4)']],
    ['bool', bool, 'true', ['must be true or false']],
    ['text', text, 1, ['must be a string']],
    ['plainObject, null', plainObject(v.looseObject({})), null, ['must be an object']],
    ['plainObject, an array', plainObject(v.looseObject({})), [], ['must be an object']],
    ['plainObject with its message, null', plainObject(v.looseObject({}), 'must be a tool object'), null, ['must be a tool object']],
  ])('%s', (_, schema, value, expected) => {
    expect(messages(schema, value)).toEqual(expected)
  })

  it.each([
    ['numberIn at both ends', numberIn(0, 2), [0, 2]],
    ['integerIn at both ends', integerIn(0, 20), [0, 20]],
    ['integerFrom at its floor', integerFrom(1), [1]],
    ['textUpTo at its limit, in units and in emoji', textUpTo(3), ['abc', '🙂🙂🙂', '']],
    ['plainObject', plainObject(v.looseObject({})), [{}, { a: 1 }]],
  ])('accepts %s', (_, schema, values) => {
    for (const value of values) expect(messages(schema, value)).toEqual([])
  })
})
