import util from 'node:util'
import { of, throwError } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClient, guard$, type ClientOptions } from '../src/client.js'
import { GatewayError } from '../src/errors/GatewayError.js'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { TimeoutError } from '../src/errors/TimeoutError.js'
import { DEFAULTS } from '../src/policy/defaults.js'
import { responses$ } from '../src/responses$.js'
import { clientWith } from './helpers/client.js'
import { observe } from './helpers/collect.js'
import { fakeGateway, json } from './helpers/fakeTransport.js'
import { KEY, response } from './helpers/fixtures.js'
import { expectNoKeyFragment, renderings } from './helpers/secrets.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

function refusal(options: unknown): InvalidRequestError {
  try {
    createClient(options as ClientOptions)
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    expect(err).toBeInstanceOf(GatewayError)
    return err as InvalidRequestError
  }
  throw new Error('createClient did not throw')
}

const BASE = { baseUrl: 'https://gateway.test', apiKey: KEY }

describe('createClient: options', () => {
  it.each([
    ['a missing baseUrl', { apiKey: KEY }, 'baseUrl'],
    ['an empty baseUrl', { baseUrl: '', apiKey: KEY }, 'baseUrl'],
    ['a baseUrl that is not a string', { baseUrl: 42, apiKey: KEY }, 'baseUrl'],
    ['a baseUrl that is not http(s)', { baseUrl: 'ftp://gateway.test', apiKey: KEY }, 'baseUrl'],
    ['a baseUrl without a scheme', { baseUrl: 'gateway.test', apiKey: KEY }, 'baseUrl'],
    ['a missing apiKey', { baseUrl: 'https://gateway.test' }, 'apiKey'],
    ['an empty apiKey', { ...BASE, apiKey: '' }, 'apiKey'],
    ['a blank apiKey', { ...BASE, apiKey: '   ' }, 'apiKey'],
    ['an apiKey that is not a string', { ...BASE, apiKey: 123 }, 'apiKey'],
    ['a zero timeoutMs', { ...BASE, timeoutMs: 0 }, 'timeoutMs'],
    ['a negative timeoutMs', { ...BASE, timeoutMs: -1 }, 'timeoutMs'],
    ['a NaN timeoutMs', { ...BASE, timeoutMs: Number.NaN }, 'timeoutMs'],
    ['a fractional timeoutMs', { ...BASE, timeoutMs: 1.5 }, 'timeoutMs'],
    ['a timeoutMs no timer can hold', { ...BASE, timeoutMs: 2 ** 31 }, 'timeoutMs'],
    ['a taskDeadlineMs no timer can hold', { ...BASE, taskDeadlineMs: 2 ** 31 }, 'taskDeadlineMs'],
    ['a zero maxBodyBytes', { ...BASE, maxBodyBytes: 0 }, 'maxBodyBytes'],
    ['a fractional maxEventBytes', { ...BASE, maxEventBytes: 1.5 }, 'maxEventBytes'],
    ['a zero maxConnections', { ...BASE, maxConnections: 0 }, 'maxConnections'],
    ['a zero maxConcurrency', { ...BASE, maxConcurrency: 0 }, 'maxConcurrency'],
    ['a fractional maxConcurrency', { ...BASE, maxConcurrency: 2.5 }, 'maxConcurrency'],
    // Timings that would make a poll loop hammer the gateway, or a retry loop spin.
    ['a taskPoll first delay that is not a number', { ...BASE, taskPoll: { initialDelayMs: 'x' } }, 'taskPoll.initialDelayMs'],
    ['a negative taskPoll first delay', { ...BASE, taskPoll: { initialDelayMs: -5 } }, 'taskPoll.initialDelayMs'],
    ['a zero taskPoll longest delay', { ...BASE, taskPoll: { maxDelayMs: 0 } }, 'taskPoll.maxDelayMs'],
    ['a taskPoll factor below 1', { ...BASE, taskPoll: { factor: 0.5 } }, 'taskPoll.factor'],
    ['a taskPoll jitter above 1', { ...BASE, taskPoll: { jitter: 2 } }, 'taskPoll.jitter'],
    ['a responsePoll with a misspelt field', { ...BASE, responsePoll: { initialDelay: 10 } }, 'responsePoll.initialDelay'],
    ['a responsePoll that is not an object', { ...BASE, responsePoll: 100 }, 'responsePoll'],
    ['a negative retry count', { ...BASE, retry: { count: -1 } }, 'retry.count'],
    ['an endless retry count', { ...BASE, retry: { count: Number.POSITIVE_INFINITY } }, 'retry.count'],
    ['a negative retry delay', { ...BASE, retry: { baseDelayMs: -1 } }, 'retry.baseDelayMs'],
    ['retry: true', { ...BASE, retry: true }, 'retry'],
    ['a fractional resumeAttempts', { ...BASE, resumeAttempts: 1.5 }, 'resumeAttempts'],
    ['a header value with a line break', { ...BASE, headers: { 'x-team': 'a\r\nx-evil: 1' } }, 'headers.x-team'],
    ['a header value that is not a string', { ...BASE, headers: { 'x-n': 5 } }, 'headers.x-n'],
    ['a header name HTTP does not allow', { ...BASE, headers: { 'x team': 'a' } }, 'headers.x team'],
    ['a responsesPath with a query', { ...BASE, responsesPath: '/v1/responses?x=1' }, 'responsesPath'],
    ['an option that does not exist (a typo keeps a default)', { ...BASE, timeout: 5_000 }, 'timeout'],
    ['a flag that is not a boolean', { ...BASE, idempotentCreate: 'yes' }, 'idempotentCreate'],
    ['a fetch that is not a function', { ...BASE, fetch: {} }, 'fetch'],
    // Where URLs given to rxgate (a custom audio_url) may reach private addresses.
    ['allowHosts that is one string, not an array', { ...BASE, allowHosts: 'localhost' }, 'allowHosts'],
    ['an empty allowHosts entry', { ...BASE, allowHosts: ['files.internal', ''] }, 'allowHosts[1]'],
    ['an allowHosts entry with whitespace', { ...BASE, allowHosts: ['files internal'] }, 'allowHosts[0]'],
    ['an allowHosts entry with a path', { ...BASE, allowHosts: ['http://127.0.0.1:8080/files'] }, 'allowHosts[0]'],
    ['an allowPrivateNetwork that is not a boolean', { ...BASE, allowPrivateNetwork: 'true' }, 'allowPrivateNetwork'],
  ])('throws InvalidRequestError at once for %s, naming the option', (_, options, field) => {
    const err = refusal(options)
    expect(err.issues.map((i) => i.path)).toContain(field)
    expect(err.message).toMatch(new RegExp(`^Invalid client options: .*${field.replace(/[[\]]/g, '\\$&')}`))
  })

  it('accepts every option in range, and retry: false', () => {
    expect(() =>
      createClient({
        ...BASE,
        retry: { count: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 },
        taskPoll: { initialDelayMs: 1, factor: 1, maxDelayMs: 1, jitter: 0 },
        responsePoll: { initialDelayMs: 250, factor: 2, maxDelayMs: 2_000, jitter: 1 },
        resumeAttempts: 0,
        headers: { 'x-team': 'tools', 'X-Trace': 'a b' },
        responsesPath: '/vendors/vendor-a/v1/responses',
        idempotentCreate: true,
        adaptToRateLimits: false,
        allowHosts: ['files.internal', '127.0.0.1:8080', 'http://[::1]:3000'],
        allowPrivateNetwork: false,
      }),
    ).not.toThrow()
    expect(() => createClient({ ...BASE, retry: false })).not.toThrow()
  })

  it('names both required options when given none', () => {
    expect(refusal(undefined).issues.map((i) => i.path)).toEqual(expect.arrayContaining(['baseUrl', 'apiKey']))
  })

  it('never puts the apiKey in a creation error', () => {
    const err = refusal({ baseUrl: 'not a url', apiKey: KEY })
    expectNoKeyFragment(err)
  })

  it('applies the documented defaults', () => {
    const client = createClient(BASE)
    expect(client).toMatchObject({
      baseUrl: 'https://gateway.test',
      timeoutMs: DEFAULTS.timeoutMs,
      maxBodyBytes: DEFAULTS.maxBodyBytes,
      maxEventBytes: DEFAULTS.maxEventBytes,
      retry: DEFAULTS.retry,
      idempotentCreate: false,
      responsesPath: '/vendors/vendor-a/v1/responses',
      responsePoll: DEFAULTS.responsePoll,
      resumeAttempts: 3,
      taskDeadlineMs: 900_000,
      allowHosts: [],
      allowPrivateNetwork: false,
    })
  })

  it('merges partial retry and poll options over the defaults, and takes retry: false', () => {
    const client = createClient({ ...BASE, retry: { count: 5 }, responsePoll: { initialDelayMs: 50 }, idempotentCreate: true })
    expect(client.retry).toEqual({ ...DEFAULTS.retry, count: 5 })
    expect(client.responsePoll).toEqual({ ...DEFAULTS.responsePoll, initialDelayMs: 50 })
    expect(client.idempotentCreate).toBe(true)
    expect(createClient({ ...BASE, retry: false }).retry).toBe(false)
  })

  it('holds the key out of sight: JSON.stringify and util.inspect of a client show none of it', () => {
    const client = createClient({ ...BASE, headers: { 'X-Trace': 't' } })
    for (const text of [JSON.stringify(client), util.inspect(client, { depth: 5 })]) {
      expect(text).not.toContain(KEY.slice(0, 8))
    }
    expect(client.secret).toBe(KEY)
  })

  it('lowercases extra headers and refuses an Authorization among them (it is sent from apiKey); trims the key and the trailing slash', () => {
    expect(refusal({ baseUrl: 'https://gateway.test', apiKey: KEY, headers: { 'X-Trace-Id': 'abc', Authorization: 'Bearer someone-else' } }).issues).toEqual([
      { path: 'headers.Authorization', message: 'cannot be an extra header: the client sends Authorization from apiKey' },
    ])
    const client = createClient({ baseUrl: 'https://gateway.test/api//', apiKey: `  ${KEY}\n`, headers: { 'X-Trace-Id': 'abc' } })
    expect(client.headers).toEqual({ 'x-trace-id': 'abc', authorization: `Bearer ${KEY}` })
    expect(client.baseUrl).toBe('https://gateway.test/api')
  })
})

describe('createClient: the messages of refused options', () => {
  const http = 'must be an http:// or https:// URL'
  const range = (max: number, got: unknown) => `must be an integer from 1 to ${max} (got ${got})`
  const ms = (got: unknown) => `must be an integer of milliseconds from 1 to ${2 ** 31 - 1} (got ${got})`
  it.each([
    ['no baseUrl', { apiKey: KEY }, [['baseUrl', 'is required']]],
    ['an empty baseUrl', { baseUrl: '', apiKey: KEY }, [['baseUrl', 'is required']]],
    ['an ftp baseUrl', { baseUrl: 'ftp://gateway.test', apiKey: KEY }, [['baseUrl', http]]],
    ['a baseUrl with something before the scheme', { baseUrl: 'proxy+https://gateway.test', apiKey: KEY }, [['baseUrl', http]]],
    ['a baseUrl with no host', { baseUrl: 'https:///x', apiKey: KEY }, [['baseUrl', http]]],
    ['a baseUrl made of an unset variable', { baseUrl: 'undefined/api', apiKey: KEY }, [['baseUrl', http]]],
    ['a path for baseUrl, with no page to be relative to', { baseUrl: '/api/rxgate' }, [['baseUrl', http], ['apiKey', 'is required (the gateway token)']]],
    ['no apiKey', { baseUrl: 'https://gateway.test' }, [['apiKey', 'is required (the gateway token)']]],
    ['an empty apiKey', { baseUrl: 'https://gateway.test', apiKey: '' }, [['apiKey', 'must not be empty']]],
    ['a blank apiKey', { baseUrl: 'https://gateway.test', apiKey: ' \n' }, [['apiKey', 'must not be empty']]],
    ['a zero timeoutMs', { ...BASE, timeoutMs: 0 }, [['timeoutMs', ms(0)]]],
    ['a timeoutMs past the longest timer', { ...BASE, timeoutMs: 2 ** 31 }, [['timeoutMs', ms(2 ** 31)]]],
    ['a fractional maxBodyBytes', { ...BASE, maxBodyBytes: 1.5 }, [['maxBodyBytes', range(Number.MAX_SAFE_INTEGER, 1.5)]]],
    ['too many connections', { ...BASE, maxConnections: 1_000_001 }, [['maxConnections', range(1_000_000, 1_000_001)]]],
    ['a null timeoutMs', { ...BASE, timeoutMs: null }, [['timeoutMs', ms(null)]]],
    ['an option that does not exist', { ...BASE, timeout: 5_000 }, [['timeout', 'is not an option of createClient']]],
    ['a flag that is a string', { ...BASE, idempotentCreate: 'yes' }, [['idempotentCreate', 'must be true or false (got string)']]],
    ['retry: true', { ...BASE, retry: true }, [['retry', 'must be an object (got boolean)']]],
    ['retry as a string', { ...BASE, retry: 'often' }, [['retry', 'must be an object (got string)']]],
    ['headers: false', { ...BASE, headers: false }, [['headers', 'must be an object of header names and string values']]],
    ['headers as a string', { ...BASE, headers: 'x-a: 1' }, [['headers', 'must be an object of header names and string values']]],
    ['a responsePoll that is a number', { ...BASE, responsePoll: 100 }, [['responsePoll', 'must be an object (got number)']]],
    ['a taskPoll that is a string', { ...BASE, taskPoll: 'slow' }, [['taskPoll', 'must be an object (got string)']]],
    ['a maxConcurrency that is a string: one issue, not two', { ...BASE, maxConcurrency: 'x' }, [['maxConcurrency', range(1_000_000, '"x"')]]],
    ['a responsesPath without its leading slash', { ...BASE, responsesPath: 'v1/responses' }, [['responsesPath', 'must be a path starting with / (no query, no spaces)']]],
    ['a responsesPath with a space', { ...BASE, responsesPath: '/v1/my responses' }, [['responsesPath', 'must be a path starting with / (no query, no spaces)']]],
  ])('for %s, names each broken option with its message', (_, options, expected) => {
    const err = refusal(options)
    expect(err.issues.map((i) => [i.path, i.message])).toEqual(expected)
    expect(err.message).toBe(`Invalid client options: ${expected.map(([path, message]) => `${path}: ${message}`).join('; ')}. Nothing was sent.`)
  })

  it('accepts each limit at its largest value', () => {
    const client = createClient({ ...BASE, timeoutMs: 2 ** 31 - 1, taskDeadlineMs: 2 ** 31 - 1, maxBodyBytes: Number.MAX_SAFE_INTEGER, maxConnections: 1_000_000, maxConcurrency: 1_000_000 })
    expect(client).toMatchObject({ timeoutMs: 2 ** 31 - 1, taskDeadlineMs: 2 ** 31 - 1, maxBodyBytes: Number.MAX_SAFE_INTEGER })
  })
})

describe('createClient: transports', () => {
  it('sends through the given transport, before a given fetch', async () => {
    const gw = fakeGateway(() => json(response()))
    const fetch = vi.fn<typeof globalThis.fetch>()
    const client = clientWith({ transport: gw.transport, fetch })
    await observe(responses$(client, { model: 'm' })).done
    expect(gw.requests).toHaveLength(1)
    expect(fetch).not.toHaveBeenCalled()
  })

  it('sends through the given fetch: the absolute URL, method, headers, body and an AbortSignal', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json(response({ id: 'resp_fake' })))
    const client = createClient({ baseUrl: 'https://gateway.test/api/', apiKey: KEY, fetch })
    const { values } = await observe(responses$(client, { model: 'm' })).done
    expect(values).toEqual([response({ id: 'resp_fake' })])
    const [url, init] = fetch.mock.calls[0]!
    expect(String(url)).toBe('https://gateway.test/api/vendors/vendor-a/v1/responses')
    expect(init).toMatchObject({ method: 'POST', body: '{"model":"m"}' })
    expect(new Headers(init!.headers).get('authorization')).toBe(`Bearer ${KEY}`)
    expect(init!.signal).toBeInstanceOf(AbortSignal)
  })

  it('sends nothing when made', () => {
    const fetch = vi.fn<typeof globalThis.fetch>()
    createClient({ ...BASE, fetch })
    expect(fetch).not.toHaveBeenCalled()
  })
})

describe('createClient in a browser', () => {
  const asBrowser = () => {
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'https://app.test' })
  }

  it('refuses an apiKey in page code unless dangerouslyAllowBrowser', () => {
    asBrowser()
    expect(refusal(BASE).issues).toEqual([{ path: 'apiKey', message: expect.stringMatching(/^is refused in browser code/) }])
    expect(createClient({ ...BASE, dangerouslyAllowBrowser: true }).secret).toBe(KEY)
  })

  it.each([
    ['a path of the page’s origin', '/api/rxgate', '/api/rxgate/vendors/vendor-a/v1/responses'],
    ['a URL of the page’s origin', 'https://app.test/api', 'https://app.test/api/vendors/vendor-a/v1/responses'],
  ])('takes %s without a key', async (_, baseUrl, url) => {
    asBrowser()
    const gw = fakeGateway(() => json(response()))
    const client = createClient({ baseUrl, transport: gw.transport } as ClientOptions)
    await observe(responses$(client, { model: 'm' })).done
    expect(gw.request(1).url).toBe(url)
  })

  it.each([
    ['another origin', { baseUrl: 'https://gateway.test' }, [['apiKey', 'is required (the gateway token)']]],
    ['a URL that only starts like the page’s origin', { baseUrl: 'https://app.test.evil.example/api' }, [['apiKey', 'is required (the gateway token)']]],
    ['a protocol-relative path', { baseUrl: '//gateway.test/api' }, [['baseUrl', 'must be an http(s) URL or a path of this page\'s origin such as /api/rxgate'], ['apiKey', 'is required (the gateway token)']]],
    ['a relative path without its leading slash', { baseUrl: 'api/rxgate' }, [['baseUrl', 'must be an http(s) URL or a path of this page\'s origin such as /api/rxgate'], ['apiKey', 'is required (the gateway token)']]],
    ['no baseUrl', {}, [['baseUrl', 'is required'], ['apiKey', 'is required (the gateway token)']]],
  ])('requires a key, or refuses the address, for %s', (_, options, expected) => {
    asBrowser()
    expect(refusal(options).issues.map((i) => [i.path, i.message])).toEqual(expected)
  })

  it('treats a worker (importScripts, no document) as browser code', () => {
    vi.stubGlobal('importScripts', () => {})
    vi.stubGlobal('location', { origin: 'https://app.test' })
    expect(refusal(BASE).issues.map((i) => i.path)).toEqual(['apiKey'])
    expect(createClient({ baseUrl: '/api/rxgate' } as ClientOptions).secret).toBeUndefined()
  })

  it('treats a page without a location as browser code, with no origin to name in the message', () => {
    vi.stubGlobal('document', {})
    expect(refusal({ baseUrl: 'gateway.test', apiKey: KEY }).issues.map((i) => [i.path, i.message])).toEqual([
      ['baseUrl', 'must be an http:// or https:// URL'],
      ['apiKey', expect.stringMatching(/^is refused in browser code/)],
    ])
  })

  it('takes a path of the page’s own origin without a key, and sends no Authorization there', async () => {
    asBrowser()
    const gw = fakeGateway(() => json(response()))
    const client = createClient({ baseUrl: '/api/rxgate', transport: gw.transport } as ClientOptions)
    await observe(responses$(client, { model: 'm' })).done
    expect(gw.request(1).url).toBe('/api/rxgate/vendors/vendor-a/v1/responses')
    expect(gw.request(1).headers.authorization).toBeUndefined()
  })
})

describe('guard$: the boundary every public Observable leaves through', () => {
  const client = createClient(BASE)

  it('builds the source at subscription, not before, and passes values and completion through', () => {
    let built = 0
    const out$ = guard$(client, () => (built++, of(1, 2)))
    expect(built).toBe(0)
    const o = observe(out$)
    expect(built).toBe(1)
    expect(o).toMatchObject({ values: [1, 2], completed: true })
  })

  it('turns what the build throws into an error notification (a bad input reported at subscription)', () => {
    const bad = new InvalidRequestError([{ path: 'x', message: 'y' }])
    const o = observe(guard$(client, () => { throw bad }))
    expect(o.error).toBe(bad)
  })

  it('wraps a foreign error in a GatewayError whose cause is the original', () => {
    const bug = new TypeError('x is not a function')
    const o = observe(guard$(client, () => throwError(() => bug)))
    expect(o.error).toBeInstanceOf(GatewayError)
    expect(o.error).toMatchObject({ message: 'Unexpected failure: TypeError: x is not a function', cause: bug })
  })

  it('masks the key in any error that leaves, own errors and foreign ones alike, cause included', () => {
    const own = observe(guard$(client, () => throwError(() => new TimeoutError('GET', `/x/${KEY}`, 5))))
    const foreign = observe(guard$(client, () => throwError(() => new Error(`boom ${KEY}`, { cause: new Error(`inner ${KEY.slice(2, 14)}`) }))))
    for (const { error } of [own, foreign]) {
      expect(error).toBeInstanceOf(GatewayError)
      expectNoKeyFragment(error)
      expect(() => renderings(error)).not.toThrow()
    }
  })
})

describe('createClient: fields given as undefined keep their defaults', () => {
  it('retry and responsePoll fields set to undefined are the defaults, not undefined (no retries, a NaN poll delay)', () => {
    const client = createClient({ ...BASE, retry: { count: undefined, baseDelayMs: 100 }, responsePoll: { factor: undefined, initialDelayMs: 50 }, taskPoll: { jitter: undefined } })
    expect(client.retry).toEqual({ ...DEFAULTS.retry, baseDelayMs: 100 })
    expect(client.responsePoll).toEqual({ ...DEFAULTS.responsePoll, initialDelayMs: 50 })
    expect(client.taskPoll).toEqual({})
  })
})
