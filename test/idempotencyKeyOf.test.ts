import { describe, expect, it } from 'vitest'
import { isInvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { idempotencyKeyOf } from '../src/idempotencyKeyOf.js'
import { idempotencyKeyIssue } from '../src/validation/options.js'

const UUID_V8 = /^[\da-f]{8}-[\da-f]{4}-8[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/

describe('idempotencyKeyOf', () => {
  it('is a UUID (version 8) that the same parts always give, and a valid Idempotency-Key', () => {
    const key = idempotencyKeyOf('renders', '42', 1767225600000)
    expect(key).toBe('9f9a1e4d-9a74-8ed9-b56b-d770112c4de3')
    expect(key).toMatch(UUID_V8)
    expect(idempotencyKeyIssue(key)).toBeUndefined()
    expect(idempotencyKeyOf('renders', '42', 1767225600000)).toBe(key)
  })

  it('gives another key for any other part, and tells parts apart however they are split', () => {
    const keys = [
      idempotencyKeyOf('renders', '42', 1767225600000),
      idempotencyKeyOf('renders', '43', 1767225600000),
      idempotencyKeyOf('renders', '42', 1767225600001),
      idempotencyKeyOf('renders', '42'),
      idempotencyKeyOf('renders:42'),
      idempotencyKeyOf('renders4', '2'),
      idempotencyKeyOf('ré', 'nders'),
    ]
    expect(new Set(keys).size).toBe(keys.length)
    for (const key of keys) expect(key).toMatch(UUID_V8)
  })

  it('counts a number as its decimal text', () => {
    expect(idempotencyKeyOf('job', 42)).toBe(idempotencyKeyOf('job', '42'))
  })

  it.each([[[]], [[null]], [['a', Number.NaN]], [['a', Number.POSITIVE_INFINITY]], [[{ id: 1 }]], [[undefined]]])('refuses %j with InvalidRequestError', (parts) => {
    let error: unknown
    try {
      idempotencyKeyOf(...(parts as (string | number)[]))
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error)).toBe(true)
  })
})
