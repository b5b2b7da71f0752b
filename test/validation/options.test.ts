import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { InvalidRequestError, type RequestIssue } from '../../src/errors/InvalidRequestError.js'
import { issuesAt } from '../../src/validation/check.js'
import { checkTaskOptions, HeadersSchema, idempotencyKeyIssue, integerFromTo, millis, PollSchema, RetrySchema } from '../../src/validation/options.js'

const MAX = 2 ** 31 - 1

const fieldIssues = (value: unknown, schema: v.GenericSchema = PollSchema, path = 'poll'): RequestIssue[] => issuesAt(path, v.optional(schema), value)
const headerIssues = (value: unknown): RequestIssue[] => issuesAt('headers', v.optional(HeadersSchema), value)
const count = (max: number) => (value: unknown) => v.safeParse(integerFromTo(0, max), value).issues?.[0].message

describe('millis: an integer of milliseconds a timer can hold', () => {
  it.each([
    [1, 1],
    [1, 250],
    [1, MAX],
    [0, 0],
    [0, MAX],
  ])('from %i accepts %i', (min, value) => {
    expect(millis(min)(value)).toBeUndefined()
  })

  // Strings are shown quoted, everything else as String() writes it.
  it.each([
    [1, 0, '0'],
    [1, -5, '-5'],
    [1, 1.5, '1.5'],
    [1, MAX + 1, '2147483648'],
    [1, Number.NaN, 'NaN'],
    [1, Number.POSITIVE_INFINITY, 'Infinity'],
    [1, '250', '"250"'],
    [1, '', '""'],
    [1, null, 'null'],
    [1, true, 'true'],
    [0, -1, '-1'],
    [0, 0.5, '0.5'],
  ])('from %i refuses %j', (min, value, shown) => {
    expect(millis(min)(value)).toBe(`must be an integer of milliseconds from ${min} to 2147483647 (got ${shown})`)
  })
})

describe('integerFromTo: an integer in a range, whatever is given', () => {
  it.each([0, 1, 99, 100])('accepts %i of 100', (value) => {
    expect(count(100)(value)).toBeUndefined()
  })

  it.each([
    [101, '101'],
    [-1, '-1'],
    [2.5, '2.5'],
    ['3', '"3"'],
    [Number.NaN, 'NaN'],
    [undefined, 'undefined'],
  ])('refuses %j', (value, shown) => {
    expect(count(100)(value)).toBe(`must be an integer from 0 to 100 (got ${shown})`)
  })
})

describe('PollSchema and RetrySchema: an options object whose fields are known and valid', () => {
  it('accepts no options at all, an empty object, and fields left undefined', () => {
    expect(fieldIssues(undefined)).toEqual([])
    expect(fieldIssues({})).toEqual([])
    expect(fieldIssues({ initialDelayMs: undefined, factor: undefined, maxDelayMs: undefined, jitter: undefined })).toEqual([])
  })

  it('accepts every polling option at its bounds', () => {
    expect(fieldIssues({ initialDelayMs: 1, factor: 1, maxDelayMs: MAX, jitter: 0 })).toEqual([])
    expect(fieldIssues({ initialDelayMs: MAX, factor: 100, maxDelayMs: 1, jitter: 1 })).toEqual([])
    expect(fieldIssues({ factor: 1.5, jitter: 0.25 })).toEqual([])
  })

  it('accepts every retry option at its bounds', () => {
    expect(fieldIssues({ count: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 }, RetrySchema, 'retry')).toEqual([])
    expect(fieldIssues({ count: 100, baseDelayMs: MAX, maxDelayMs: MAX, maxRetryAfterMs: MAX }, RetrySchema, 'retry')).toEqual([])
  })

  it.each([
    ['a string', 'fast', 'must be an object (got string)'],
    ['a number', 5, 'must be an object (got number)'],
    ['true', true, 'must be an object (got boolean)'],
    ['null', null, 'must be an object (got null)'],
    ['a list', [{ factor: 2 }], 'must be an object (got an array)'],
    ['an empty list', [], 'must be an object (got an array)'],
  ])('refuses %s in place of the object, once', (_, value, message) => {
    expect(fieldIssues(value)).toEqual([{ path: 'poll', message }])
  })

  it('names an unknown field and lists the options there are', () => {
    expect(fieldIssues({ intialDelayMs: 5 })).toEqual([{ path: 'poll.intialDelayMs', message: 'is not an option (the options are initialDelayMs, factor, maxDelayMs, jitter)' }])
    expect(fieldIssues({ retries: 3 }, RetrySchema, 'retry')).toEqual([
      { path: 'retry.retries', message: 'is not an option (the options are count, baseDelayMs, maxDelayMs, maxRetryAfterMs)' },
    ])
  })

  it('takes no inherited name for an option', () => {
    expect(fieldIssues({ toString: 1 })).toEqual([{ path: 'poll.toString', message: 'is not an option (the options are initialDelayMs, factor, maxDelayMs, jitter)' }])
  })

  // between(min, max) takes any finite number in range, and nothing else.
  it.each([
    ['factor', 0.5, 'must be a number from 1 to 100 (got 0.5)'],
    ['factor', 101, 'must be a number from 1 to 100 (got 101)'],
    ['factor', '2', 'must be a number from 1 to 100 (got "2")'],
    ['factor', Number.NaN, 'must be a number from 1 to 100 (got NaN)'],
    ['factor', Number.POSITIVE_INFINITY, 'must be a number from 1 to 100 (got Infinity)'],
    ['jitter', -0.1, 'must be a number from 0 to 1 (got -0.1)'],
    ['jitter', 1.01, 'must be a number from 0 to 1 (got 1.01)'],
    ['jitter', true, 'must be a number from 0 to 1 (got true)'],
    ['jitter', '0.5', 'must be a number from 0 to 1 (got "0.5")'],
    ['jitter', null, 'must be a number from 0 to 1 (got null)'],
    ['initialDelayMs', 0, 'must be an integer of milliseconds from 1 to 2147483647 (got 0)'],
    ['maxDelayMs', 2.5, 'must be an integer of milliseconds from 1 to 2147483647 (got 2.5)'],
  ])('refuses poll.%s = %j', (field, value, message) => {
    expect(fieldIssues({ [field]: value })).toEqual([{ path: `poll.${field}`, message }])
  })

  it('reports every broken field: the known ones in the order of the options, then each unknown name as given', () => {
    expect(fieldIssues({ bogus: 1, count: 101, other: 2, baseDelayMs: -1 }, RetrySchema, 'retry')).toEqual([
      { path: 'retry.count', message: 'must be an integer from 0 to 100 (got 101)' },
      { path: 'retry.baseDelayMs', message: 'must be an integer of milliseconds from 0 to 2147483647 (got -1)' },
      { path: 'retry.bogus', message: 'is not an option (the options are count, baseDelayMs, maxDelayMs, maxRetryAfterMs)' },
      { path: 'retry.other', message: 'is not an option (the options are count, baseDelayMs, maxDelayMs, maxRetryAfterMs)' },
    ])
  })
})

describe('HeadersSchema: HTTP header names with string values on one line', () => {
  it('accepts no headers, an empty object and valid headers', () => {
    expect(headerIssues(undefined)).toEqual([])
    expect(headerIssues({})).toEqual([])
    expect(headerIssues({ 'X-Trace-Id': 'abc 123', "x-a!#$%&'*+.^_`|~": '', Accept: 'application/json; q=0.9' })).toEqual([])
  })

  it.each([
    ['a string', 'X-A: 1'],
    ['a number', 1],
    ['null', null],
    ['a list', [['X-A', '1']]],
    ['false', false],
  ])('refuses %s in place of the object, once', (_, value) => {
    expect(headerIssues(value)).toEqual([{ path: 'headers', message: 'must be an object of header names and string values' }])
  })

  it.each([['X A'], ['X:A'], [''], ['Ä'], ['X\nA'], ['(x)']])('refuses the header name %j', (name) => {
    expect(headerIssues({ [name]: 'v' })).toEqual([{ path: `headers.${name}`, message: 'is not a valid header name' }])
  })

  it.each([
    [1, 'number'],
    [true, 'boolean'],
    [null, 'object'],
    [undefined, 'undefined'],
    [['a'], 'object'],
  ])('refuses the value %j, naming its type', (value, type) => {
    expect(headerIssues({ 'X-A': value })).toEqual([{ path: 'headers.X-A', message: `must be a string (got ${type})` }])
  })

  it.each([['a\r\nX-Evil: 1'], ['a\nb'], ['a\rb'], ['a\0b'], ['a\x7fb'], ['a\x1bb'], ['snow\u2603']])('refuses the value %j', (value) => {
    expect(headerIssues({ 'X-A': value })).toEqual([{ path: 'headers.X-A', message: 'must be one line of printable characters (no CR, LF or other control characters)' }])
  })

  it('accepts a tab and Latin-1 in a value', () => {
    expect(headerIssues({ 'X-A': 'a\tb caf\u00e9' })).toEqual([])
  })

  it.each([['Host'], ['content-length'], ['Transfer-Encoding'], ['connection']])('refuses must be one line of printable characters (no CR, LF or other control characters), which the connection sets', (name) => {
    expect(headerIssues({ [name]: 'x' })).toEqual([{ path: `headers.${name}`, message: 'is set by the connection and cannot be sent as an extra header' }])
  })

  it('refuses a name given twice in another case', () => {
    expect(headerIssues({ 'X-A': '1', 'x-a': '2' })).toEqual([{ path: 'headers.x-a', message: 'is given twice (header names ignore case)' }])
  })

  it('reports each broken header once, in the order given', () => {
    expect(headerIssues({ 'bad name': 1, 'X-A': 'ok', 'X-B': 2, 'X-C': 'a\nb' })).toEqual([
      { path: 'headers.bad name', message: 'is not a valid header name' },
      { path: 'headers.X-B', message: 'must be a string (got number)' },
      { path: 'headers.X-C', message: 'must be one line of printable characters (no CR, LF or other control characters)' },
    ])
  })
})

describe('idempotencyKeyIssue: 1 to 255 printable ASCII characters', () => {
  it.each([['k'], ['a'.repeat(255)], ['!~'], ['3f1c-9a7e_key:1']])('accepts %j', (key) => {
    expect(idempotencyKeyIssue(key)).toBeUndefined()
  })

  it.each([
    ['', '""'],
    ['a'.repeat(256), JSON.stringify('a'.repeat(256))],
    ['a b', '"a b"'],
    ['é', '"é"'],
    ['a\tb', '"a\\tb"'],
    [42, '42'],
    [null, 'null'],
    [undefined, 'undefined'],
  ])('refuses %j', (key, shown) => {
    expect(idempotencyKeyIssue(key)).toBe(`must be 1 to 255 printable ASCII characters without spaces (got ${shown})`)
  })
})

describe('checkTaskOptions', () => {
  const refusal = (options: Parameters<typeof checkTaskOptions>[0]) => {
    try {
      checkTaskOptions(options)
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidRequestError)
      return err as InvalidRequestError
    }
    throw new Error('accepted')
  }

  it('accepts no options and valid ones', () => {
    expect(() => checkTaskOptions({})).not.toThrow()
    expect(() => checkTaskOptions({ poll: { initialDelayMs: 500, factor: 2, maxDelayMs: 10_000, jitter: 0.1 }, deadlineMs: 1, idempotencyKey: 'key-1' })).not.toThrow()
    expect(() => checkTaskOptions({ poll: undefined, deadlineMs: MAX, idempotencyKey: undefined })).not.toThrow()
  })

  it('names every broken option in one error about the options', () => {
    const err = refusal({ poll: { factor: 0, every: 5 }, deadlineMs: 0, idempotencyKey: 'a b' })
    expect(err.issues).toEqual([
      { path: 'poll.factor', message: 'must be a number from 1 to 100 (got 0)' },
      { path: 'poll.every', message: 'is not an option (the options are initialDelayMs, factor, maxDelayMs, jitter)' },
      { path: 'deadlineMs', message: 'must be an integer of milliseconds from 1 to 2147483647 (got 0)' },
      { path: 'idempotencyKey', message: 'must be 1 to 255 printable ASCII characters without spaces (got "a b")' },
    ])
    expect(err.message).toBe(
      'Invalid options: poll.factor: must be a number from 1 to 100 (got 0); poll.every: is not an option (the options are initialDelayMs, factor, maxDelayMs, jitter); ' +
        'deadlineMs: must be an integer of milliseconds from 1 to 2147483647 (got 0); idempotencyKey: must be 1 to 255 printable ASCII characters without spaces (got "a b"). Nothing was sent.',
    )
  })

  it.each([
    [{ poll: 'fast' }, [{ path: 'poll', message: 'must be an object (got string)' }]],
    [{ deadlineMs: 2 ** 31 }, [{ path: 'deadlineMs', message: 'must be an integer of milliseconds from 1 to 2147483647 (got 2147483648)' }]],
    [{ deadlineMs: '60000' }, [{ path: 'deadlineMs', message: 'must be an integer of milliseconds from 1 to 2147483647 (got "60000")' }]],
    [{ idempotencyKey: '' }, [{ path: 'idempotencyKey', message: 'must be 1 to 255 printable ASCII characters without spaces (got "")' }]],
    [{ idempotencyKey: 7 }, [{ path: 'idempotencyKey', message: 'must be 1 to 255 printable ASCII characters without spaces (got 7)' }]],
  ])('refuses %j', (options, issues) => {
    const err = refusal(options)
    expect(err.issues).toEqual(issues)
    expect(err.message).toBe(`Invalid options: ${issues[0]!.path}: ${issues[0]!.message}. Nothing was sent.`)
  })
})
