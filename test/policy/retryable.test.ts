import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { ResponseFailedError } from '../../src/errors/ResponseFailedError.js'
import { TaskFailedError } from '../../src/errors/TaskFailedError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { DEFAULTS } from '../../src/policy/defaults.js'
import { certainlyNotCreated, isTransient, neverArrived } from '../../src/policy/retryable.js'
import { createRule, readRule } from '../../src/policy/rules.js'

const http = (status: number, body = '', retryAfterMs?: number) => new HttpError({ method: 'POST', path: '/p', status, body, retryAfterMs })
const quota = JSON.stringify({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } })

// [error, isTransient, neverArrived, certainlyNotCreated]
const TABLE: [string, unknown, boolean, boolean, boolean][] = [
  ['connection refused (not sent)', new ConnectionError('POST', '/p', 'refused', false), true, true, true],
  ['connection broken after sending', new ConnectionError('POST', '/p', 'reset', true), true, false, false],
  ['silence timeout', new TimeoutError('POST', '/p', 1_000, 'silence'), true, false, false],
  ['deadline timeout', new TimeoutError('call', '/p', 1_000, 'deadline'), false, false, false],
  ['malformed reply', new ValidationError('reply', [{ path: '', message: 'is not JSON' }], 'x'), true, false, false],
  ['408', http(408), true, false, false],
  ['429 rate limit', http(429, '{"error":{"code":"rate_limit_exceeded","message":"slow down"}}'), true, true, true],
  ['429 insufficient_quota', http(429, quota), false, false, true],
  ['429 daily spend cap', http(429, '{"message":"Daily spend cap reached"}'), false, false, true],
  ['500', http(500), true, false, false],
  ['502', http(502), true, false, false],
  ['503', http(503), true, true, true],
  ['504', http(504), true, false, false],
  ['400', http(400), false, false, true],
  ['401', http(401), false, false, true],
  ['403', http(403), false, false, true],
  ['404', http(404), false, false, true],
  ['409', http(409), false, false, true],
  ['body over a size limit', new PayloadTooLargeError('GET', '/p', 'maxBodyBytes', 10), false, false, false],
  ['failed response', new ResponseFailedError({ message: 'x' }), false, false, false],
  ['failed task', new TaskFailedError('t', { code: 3001, title: 'T', detail: 'd' }), false, false, false],
  ['invalid request', new InvalidRequestError([{ path: 'a', message: 'b' }]), false, false, false],
  ['a plain Error', new Error('bug'), false, false, false],
  ['a non-error value', 'oops', false, false, false],
]

describe('what may pass if sent again', () => {
  it.each(TABLE)('%s: isTransient %s, neverArrived %s, certainlyNotCreated %s', (_, error, transient, never, notCreated) => {
    expect([isTransient(error), neverArrived(error), certainlyNotCreated(error)]).toEqual([transient, never, notCreated])
  })
})

const retry = { count: 2, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 }

describe('readRule', () => {
  const rule = readRule({ retry, idempotentCreate: false })

  it.each(TABLE)('%s: retried when transient (%s), within the budget', (_, error, transient) => {
    expect(rule(error, 1) !== undefined).toBe(transient)
  })

  it('gives up after `count` retries in a row', () => {
    const error = http(502)
    expect([1, 2, 3].map((n) => rule(error, n) !== undefined)).toEqual([true, true, false])
  })

  it('waits the Retry-After when there is one, a jittered delay below the doubling ceiling otherwise', () => {
    expect(rule(http(503, '', 2_000), 1)).toBe(2_000)
    for (const n of [1, 2]) {
      const ms = rule(http(502), n)!
      expect(ms).toBeGreaterThanOrEqual(0)
      expect(ms).toBeLessThan(100 * 2 ** (n - 1))
    }
  })

  it('does not wait out a Retry-After above maxRetryAfterMs', () => {
    expect(rule(http(429, '', 5_001), 1)).toBeUndefined()
  })

  it('retries nothing with retry: false', () => {
    const none = readRule({ retry: false, idempotentCreate: false })
    expect(none(http(503), 1)).toBeUndefined()
    expect(none(new ConnectionError('GET', '/p', 'refused', false), 1)).toBeUndefined()
  })
})

describe('createRule', () => {
  it.each(TABLE)('%s: sent again only when it never arrived (%s)', (_, error, __, never) => {
    expect(createRule({ retry, idempotentCreate: false })(error, 1) !== undefined).toBe(never)
  })

  it.each(TABLE)('%s: with idempotentCreate, sent again whenever transient (%s)', (_, error, transient) => {
    expect(createRule({ retry, idempotentCreate: true })(error, 1) !== undefined).toBe(transient)
  })

  it('keeps to `count` without idempotentCreate', () => {
    const rule = createRule({ retry, idempotentCreate: false })
    expect([1, 2, 3].map((n) => rule(http(503), n) !== undefined)).toEqual([true, true, false])
  })

  it('with idempotentCreate, keeps to `count` while no attempt may have arrived (nothing can exist yet)', () => {
    const rule = createRule({ retry, idempotentCreate: true })
    expect([1, 2, 3].map((n) => rule(http(503), n) !== undefined)).toEqual([true, true, false])
    const refused = createRule({ retry, idempotentCreate: true })
    expect([1, 2, 3].map((n) => refused(new ConnectionError('POST', '/p', 'refused', false), n) !== undefined)).toEqual([true, true, false])
  })

  it('with idempotentCreate, once an attempt may have arrived, a 503 or a refused connection rides out 5 failures in a row, not `count`', () => {
    const reset = new ConnectionError('POST', '/p', 'reset', true)
    const refused = new ConnectionError('POST', '/p', 'refused', false)
    for (const after of [reset, http(500)]) {
      const rule = createRule({ retry, idempotentCreate: true })
      expect([rule(after, 1), ...[2, 3, 4, 5, 6].map((n) => rule(n % 2 ? refused : http(503), n))].map((wait) => wait !== undefined)).toEqual([
        true,
        true,
        true,
        true,
        true,
        false,
      ])
    }
    // each call has a rule of its own: another call's reset does not lift this one's bound
    const other = createRule({ retry, idempotentCreate: true })
    expect(other(http(503), 3)).toBeUndefined()
    // a `count` above 5 holds
    const high = createRule({ retry: { ...retry, count: 8 }, idempotentCreate: true })
    expect([high(reset, 1), high(http(503), 8), high(http(503), 9)].map((wait) => wait !== undefined)).toEqual([true, true, false])
  })

  it('without idempotentCreate, a failure that may have arrived lifts nothing', () => {
    const rule = createRule({ retry, idempotentCreate: false })
    expect(rule(new ConnectionError('POST', '/p', 'reset', true), 1)).toBeUndefined()
    expect([2, 3].map((n) => rule(http(503), n) !== undefined)).toEqual([true, false])
  })

  it('retries nothing with retry: false', () => {
    expect(createRule({ retry: false, idempotentCreate: true })(http(503), 1)).toBeUndefined()
  })

  it('with retry: false, not even a creation whose outcome is unknown, when the key is honoured', () => {
    const rule = createRule({ retry: false, idempotentCreate: true })
    expect(rule(http(500), 1)).toBeUndefined()
    expect(rule(new ConnectionError('POST', '/p', 'reset', true), 1)).toBeUndefined()
  })
})

describe('rate limits paced by the client budget (pacedRateLimits)', () => {
  const rateLimit = () => http(429, '{"error":{"code":"rate_limit_exceeded","message":"slow down"}}')
  const survived = (rule: (e: unknown, n: number) => number | undefined, error: () => unknown) => {
    let n = 1
    while (n <= 50 && rule(error(), n) !== undefined) n++
    return n - 1
  }

  it('rides out up to 10 rate-limiting 429s in a row, reading or creating; other failures keep to `count`', () => {
    for (const make of [readRule, createRule]) {
      const rule = make({ retry, idempotentCreate: false, pacedRateLimits: true })
      expect(survived(rule, rateLimit)).toBe(10)
      expect(survived(make({ retry, idempotentCreate: false, pacedRateLimits: true }), () => http(503))).toBe(2)
    }
    // with idempotentCreate too, before and after an attempt that may have arrived
    expect(survived(createRule({ retry, idempotentCreate: true, pacedRateLimits: true }), rateLimit)).toBe(10)
    const afterReset = createRule({ retry, idempotentCreate: true, pacedRateLimits: true })
    afterReset(new ConnectionError('POST', '/p', 'reset', true), 1)
    expect(survived(afterReset, rateLimit)).toBe(10)
    expect(survived(readRule({ retry, idempotentCreate: false, pacedRateLimits: true }), () => http(502))).toBe(2)
  })

  it('without pacing, a rate-limiting 429 keeps to `count`', () => {
    expect(survived(readRule({ retry, idempotentCreate: false }), rateLimit)).toBe(2)
    expect(survived(readRule({ retry, idempotentCreate: false, pacedRateLimits: false }), rateLimit)).toBe(2)
  })

  it('a `count` above 10 still holds for paced 429s', () => {
    expect(survived(readRule({ retry: { ...retry, count: 12 }, idempotentCreate: false, pacedRateLimits: true }), rateLimit)).toBe(12)
  })
})

describe('DEFAULTS', () => {
  it('hold the documented numbers', () => {
    expect(DEFAULTS).toMatchObject({
      timeoutMs: 600_000,
      maxBodyBytes: 32 * 1024 * 1024,
      maxEventBytes: 16 * 1024 * 1024,
      retry: { count: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 },
      pollFailures: 5,
      resumeAttempts: 3,
      taskDeadlineMs: 900_000,
      taskPoll: { video: { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000 }, image: { initialDelayMs: 2_000 } },
    })
  })
})
