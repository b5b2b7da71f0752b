import { asyncScheduler } from 'rxjs'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { ClientOptions } from '../src/client.js'
import type { RetryOptions } from '../src/policy/defaults.js'
import { clientOptionIssues } from '../src/clientOptions.js'

const BASE = { baseUrl: 'https://gateway.test', apiKey: 'k' }
const MAX_TIMER = 2 ** 31 - 1
const SAFE = Number.MAX_SAFE_INTEGER

/** The issues of `more` over valid options, outside a browser. */
const issuesOf = (more: Record<string, unknown>) => clientOptionIssues({ ...BASE, ...more }, undefined)
const only = (path: string, message: string) => [{ path, message }]

describe('ClientOptionsSchema: each number option takes its range and refuses what is outside, whatever its type', () => {
  const integer = (min: number, max: number) => (got: string) => `must be an integer from ${min} to ${max} (got ${got})`
  const ms = (got: string) => `must be an integer of milliseconds from 1 to ${MAX_TIMER} (got ${got})`
  it.each([
    ['maxConnections', 1, 1_000_000, integer(1, 1_000_000)],
    ['timeoutMs', 1, MAX_TIMER, ms],
    ['taskDeadlineMs', 1, MAX_TIMER, ms],
    ['maxBodyBytes', 1, SAFE, integer(1, SAFE)],
    ['maxEventBytes', 1, SAFE, integer(1, SAFE)],
    ['resumeAttempts', 0, 100, integer(0, 100)],
    ['maxConcurrency', 1, 1_000_000, integer(1, 1_000_000)],
    ['maxTokensPerMinute', 1, SAFE, (got: string) => `must be a positive integer (got ${got})`],
  ] as const)('%s: an integer from %d to %d', (name, min, max, rule) => {
    expect(issuesOf({ [name]: min })).toEqual([])
    expect(issuesOf({ [name]: max })).toEqual([])
    expect(issuesOf({ [name]: min - 1 })).toEqual(only(name, rule(String(min - 1))))
    if (max < SAFE) expect(issuesOf({ [name]: max + 1 })).toEqual(only(name, rule(String(max + 1))))
    expect(issuesOf({ [name]: min + 0.5 })).toEqual(only(name, rule(String(min + 0.5))))
    expect(issuesOf({ [name]: Number.NaN })).toEqual(only(name, rule('NaN')))
    expect(issuesOf({ [name]: '5' })).toEqual(only(name, rule('"5"')))
    expect(issuesOf({ [name]: null })).toEqual(only(name, rule('null')))
  })

  it('maxRequestsPerSecond: any number from 0.001 to 1000000, fractions included', () => {
    const rule = (got: string) => only('maxRequestsPerSecond', `must be a number from 0.001 to 1000000 (got ${got})`)
    for (const n of [0.001, 0.5, 1_000_000]) expect(issuesOf({ maxRequestsPerSecond: n })).toEqual([])
    expect(issuesOf({ maxRequestsPerSecond: 0 })).toEqual(rule('0'))
    expect(issuesOf({ maxRequestsPerSecond: 1_000_001 })).toEqual(rule('1000001'))
    expect(issuesOf({ maxRequestsPerSecond: Number.POSITIVE_INFINITY })).toEqual(rule('Infinity'))
  })
})

describe('ClientOptionsSchema: types', () => {
  it.each([
    ['apiKey', 123, 'must be a string (got number)'],
    ['responsesPath', 5, 'must be a string (got number)'],
    ['fetch', {}, 'must be a function (got object)'],
    ['transport', 'undici', 'must be a function (got string)'],
    ['exchange', null, 'must be a function (got null)'],
    ['dangerouslyAllowBrowser', 'true', 'must be true or false (got string)'],
    ['idempotentCreate', 1, 'must be true or false (got number)'],
    ['adaptToRateLimits', null, 'must be true or false (got null)'],
    ['allowPrivateNetwork', 'false', 'must be true or false (got string)'],
    ['hooks', () => {}, 'must be an object (got function)'],
    ['hooks', null, 'must be an object (got null)'],
    ['telemetry', 'otel', 'must be an object (got string)'],
    ['telemetry', {}, 'must have an operation method (e.g. openTelemetry() from rxgate/otel)'],
    ['scheduler', {}, 'must be an RxJS scheduler, with now() and schedule() (got object)'],
    ['scheduler', 'async', 'must be an RxJS scheduler, with now() and schedule() (got string)'],
    ['retry', [], 'must be an object (got an array)'],
    ['retry', null, 'must be an object (got null)'],
    ['taskPoll', 10, 'must be an object (got number)'],
    ['headers', [['x-a', '1']], 'must be an object of header names and string values'],
  ])('refuses %s: %j', (name, value, message) => {
    expect(issuesOf({ [name]: value })).toEqual(only(name, message))
  })

  it('takes the objects and functions of the caller as they are', () => {
    const options = { fetch, transport: async () => new Response(), exchange: () => undefined, hooks: {}, telemetry: { operation: () => undefined }, scheduler: asyncScheduler, retry: false }
    expect(issuesOf(options)).toEqual([])
  })

  it('reads no options as {}, and refuses anything but an object', () => {
    expect(clientOptionIssues(undefined, undefined)).toEqual([
      { path: 'baseUrl', message: 'is required' },
      { path: 'apiKey', message: 'is required (the gateway token)' },
    ])
    expect(clientOptionIssues('https://gateway.test', undefined)).toEqual(only('', 'must be an object (got string)'))
  })

  it('tells a baseUrl of the wrong type from a missing one', () => {
    expect(issuesOf({ baseUrl: 1 })).toEqual(only('baseUrl', 'must be a string (got number)'))
    expect(issuesOf({ baseUrl: undefined })).toEqual(only('baseUrl', 'is required'))
  })
})

describe('ClientOptionsSchema: names', () => {
  it('refuses each unknown option, after the known ones, in the order given', () => {
    expect(issuesOf({ timeout: 5, timeoutMs: 0, retries: 2 })).toEqual([
      { path: 'timeoutMs', message: `must be an integer of milliseconds from 1 to ${MAX_TIMER} (got 0)` },
      { path: 'timeout', message: 'is not an option of createClient' },
      { path: 'retries', message: 'is not an option of createClient' },
    ])
  })

  it('refuses the names an object schema passes over (__proto__, constructor, prototype), as any unknown name', () => {
    const options = JSON.parse('{"__proto__": {"timeoutMs": 1}, "constructor": 1, "prototype": 2}') as Record<string, unknown>
    expect(issuesOf(options)).toEqual([
      { path: '__proto__', message: 'is not an option of createClient' },
      { path: 'constructor', message: 'is not an option of createClient' },
      { path: 'prototype', message: 'is not an option of createClient' },
    ])
  })

  it.each([
    ['retry', 'count, baseDelayMs, maxDelayMs, maxRetryAfterMs'],
    ['responsePoll', 'initialDelayMs, factor, maxDelayMs, jitter'],
    ['taskPoll', 'initialDelayMs, factor, maxDelayMs, jitter'],
  ])('refuses an unknown field of %s, naming the fields there are', (name, fields) => {
    expect(issuesOf({ [name]: { delay: 5, toString: 1 } })).toEqual([
      { path: `${name}.delay`, message: `is not an option (the options are ${fields})` },
      { path: `${name}.toString`, message: `is not an option (the options are ${fields})` },
    ])
  })
})

describe('ClientOptionsSchema: headers and allowHosts', () => {
  it('names each broken header with its rule', () => {
    expect(issuesOf({ headers: { Host: 'x', 'X-A': '1', 'x-a': '2', 'X-B': 'a\nb', 'X C': 'd', 'X-D': 4 } })).toEqual([
      { path: 'headers.Host', message: 'is set by the connection and cannot be sent as an extra header' },
      { path: 'headers.x-a', message: 'is given twice (header names ignore case)' },
      { path: 'headers.X-B', message: 'must be one line of printable characters (no CR, LF or other control characters)' },
      { path: 'headers.X C', message: 'is not a valid header name' },
      { path: 'headers.X-D', message: 'must be a string (got number)' },
    ])
  })

  it('names each broken allowHosts entry by its index, as the other options with allowHosts do', () => {
    const entry = (got: string) => `must be a hostname, a host:port or an origin such as http://127.0.0.1:8080, without whitespace or control characters (got ${got})`
    expect(issuesOf({ allowHosts: ['files.internal', '', 'http://a/path', '127.0.0.1:8080', 3] })).toEqual([
      { path: 'allowHosts[1]', message: entry('""') },
      { path: 'allowHosts[2]', message: entry('"http://a/path"') },
      { path: 'allowHosts[4]', message: entry('3') },
    ])
    expect(issuesOf({ allowHosts: 'localhost' })).toEqual(only('allowHosts', 'must be an array of hostnames, host:port or origins (got a string)'))
  })

  it('reads the entries of allowHosts only when it is an array (a string is not read letter by letter)', () => {
    expect(issuesOf({ allowHosts: 'a b' })).toEqual(only('allowHosts', 'must be an array of hostnames, host:port or origins (got a string)'))
  })

  it('refuses an Authorization header beside the other broken headers, all at once', () => {
    expect(issuesOf({ headers: { 'X C': 'd', authorization: 'Bearer x' } })).toEqual([
      { path: 'headers.X C', message: 'is not a valid header name' },
      { path: 'headers.authorization', message: 'cannot be an extra header: the client sends Authorization from apiKey' },
    ])
  })

  it('takes as scheduler only an object with now() and schedule()', () => {
    const message = 'must be an RxJS scheduler, with now() and schedule() (got object)'
    expect(issuesOf({ scheduler: { now: () => 0 } })).toEqual(only('scheduler', message))
    expect(issuesOf({ scheduler: { schedule: () => undefined } })).toEqual(only('scheduler', message))
    expect(issuesOf({ scheduler: Object.assign(() => 0, { now: () => 0, schedule: () => undefined }) })).toEqual(only('scheduler', 'must be an RxJS scheduler, with now() and schedule() (got function)'))
  })

  it('refuses a hole in allowHosts as the undefined entry it is', () => {
    expect(issuesOf({ allowHosts: [, 'files.internal'] })).toEqual(only('allowHosts[0]', 'must be a hostname, a host:port or an origin such as http://127.0.0.1:8080, without whitespace or control characters (got undefined)'))
  })

  it('takes headers as a plain object only: a Headers or Map object would send none of its entries', () => {
    const message = 'must be a plain object of header names and string values (a Headers or Map object would send none of them)'
    expect(issuesOf({ headers: new Headers({ 'x-a': '1' }) })).toEqual(only('headers', message))
    expect(issuesOf({ headers: new Map([['x-a', '1']]) })).toEqual(only('headers', message))
    expect(issuesOf({ headers: Object.assign(Object.create(null) as object, { 'x-a': '1' }) })).toEqual([])
  })
})

describe('clientOptionIssues: options read together', () => {
  it('reports every issue at once, in the order of the options, the address checks among them', () => {
    expect(clientOptionIssues({ timeoutMs: -1, baseUrl: 'ftp://gateway.test', bogus: 1, retry: true }, undefined)).toEqual([
      { path: 'baseUrl', message: 'must be an http:// or https:// URL' },
      { path: 'apiKey', message: 'is required (the gateway token)' },
      { path: 'timeoutMs', message: `must be an integer of milliseconds from 1 to ${MAX_TIMER} (got -1)` },
      { path: 'retry', message: 'must be an object (got boolean)' },
      { path: 'bogus', message: 'is not an option of createClient' },
    ])
  })

  it('takes a path of the page for baseUrl without a key, and refuses a key in the page unless allowed', () => {
    expect(clientOptionIssues({ baseUrl: '/api/rxgate' }, 'https://app.test')).toEqual([])
    expect(clientOptionIssues({ baseUrl: '/api/rxgate', apiKey: 'k' }, 'https://app.test')).toEqual([{ path: 'apiKey', message: expect.stringMatching(/^is refused in browser code/) }])
    expect(clientOptionIssues({ baseUrl: '/api/rxgate', apiKey: 'k', dangerouslyAllowBrowser: true }, 'https://app.test')).toEqual([])
    // A blank key is no key to leak: it is refused as empty, not as a key in the page.
    expect(clientOptionIssues({ baseUrl: '/api/rxgate', apiKey: ' ' }, 'https://app.test')).toEqual([{ path: 'apiKey', message: 'must not be empty' }])
  })
})

describe('ClientOptions: the schema input type', () => {
  it('types each option as the schema reads it', () => {
    expectTypeOf<ClientOptions['baseUrl']>().toEqualTypeOf<string>()
    expectTypeOf<ClientOptions['retry']>().toEqualTypeOf<RetryOptions | false | undefined>()
    expectTypeOf<ClientOptions['allowHosts']>().toEqualTypeOf<readonly string[] | undefined>()
    // @ts-expect-error: a misspelt option does not compile
    const typo: ClientOptions = { ...BASE, timeout: 5 }
    expect(typo).toBeDefined()
  })
})
