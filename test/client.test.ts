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
  ])('throws InvalidRequestError at once for %s, naming the option', (_, options, field) => {
    const err = refusal(options)
    expect(err.issues.map((i) => i.path)).toContain(field)
    expect(err.message).toMatch(new RegExp(`^Invalid client options: .*${field}`))
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

  it('lowercases extra headers and never lets them replace Authorization; trims the key and the trailing slash', () => {
    const client = createClient({ baseUrl: 'https://gateway.test/api//', apiKey: `  ${KEY}\n`, headers: { 'X-Trace-Id': 'abc', Authorization: 'Bearer someone-else' } })
    expect(client.headers).toEqual({ 'x-trace-id': 'abc', authorization: `Bearer ${KEY}` })
    expect(client.baseUrl).toBe('https://gateway.test/api')
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
