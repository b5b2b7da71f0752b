import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { checkDelay, checkIdSegment } from '../../src/validation/paths.js'

const refusal = (check: () => unknown) => {
  try {
    check()
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    return (err as InvalidRequestError).issues
  }
  throw new Error('accepted')
}

describe('checkIdSegment', () => {
  it.each(['resp_1', 'resp-1.a:b', 'A'.repeat(256)])('accepts %s as it is', (id) => {
    expect(checkIdSegment(id, 'id')).toBe(id)
  })

  it.each(['', '.', '..', 'a/b', '../x', 'a?b', 'a#b', 'a b', '%2F', 'A'.repeat(257), 42, null])('refuses %j, naming the field', (id) => {
    expect(refusal(() => checkIdSegment(id, 'id'))).toEqual([{ path: 'id', message: `must be an id of letters, digits, "_", "-", "." or ":" (got ${JSON.stringify(id)})` }])
  })
})

describe('checkDelay', () => {
  it.each([1, 1_000, 2 ** 31 - 1])('accepts %i ms', (ms) => {
    expect(checkDelay(ms, 'deadlineMs')).toBe(ms)
  })

  it.each([0, -1, 1.5, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY, '1000', null])('refuses %j, naming the field (a timer cannot hold it, or it is no duration)', (ms) => {
    expect(refusal(() => checkDelay(ms, 'deadlineMs'))).toEqual([{ path: 'deadlineMs', message: `must be an integer of milliseconds from 1 to 2147483647 (got ${String(ms)})` }])
  })
})
