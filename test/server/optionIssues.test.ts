import { describe, expect, it, vi } from 'vitest'
import { isInvalidRequestError } from '../../src/index.js'
import { createGatewayHandler, type GatewayHandlerOptions } from '../../src/server/index.js'
import { callPost, fakeFetch, KEY, RESPONSES } from './helpers.js'

const GOOD = { baseUrl: 'https://gateway.example', apiKey: KEY, authorize: () => true }

/** The issues `createGatewayHandler` throws for `options` (none when it accepts them). */
function issuesOf(options: unknown): readonly { path: string; message: string }[] {
  try {
    createGatewayHandler(options as GatewayHandlerOptions)
    return []
  } catch (error) {
    expect(isInvalidRequestError(error), String(error)).toBe(true)
    return (error as { issues: readonly { path: string; message: string }[] }).issues
  }
}

const REQUIRED = "is required: pass authorize(request), the app's check of who may spend the key (its session, a rate limit), or allowUnauthenticated: true to let anyone who reaches this server call the gateway with it"

describe('createGatewayHandler: who may call', () => {
  it('does not start without authorize, and says what to pass', () => {
    const bare = { baseUrl: GOOD.baseUrl, apiKey: KEY }
    expect(() => createGatewayHandler(bare)).toThrow(`Invalid gateway handler options: authorize: ${REQUIRED}. Nothing was sent.`)
    expect(issuesOf({ ...bare, allowUnauthenticated: false })).toEqual([{ path: 'authorize', message: REQUIRED }])
    expect(issuesOf({ ...bare, authorize: undefined })).toEqual([{ path: 'authorize', message: REQUIRED }])
  })

  it('starts with authorize, or open with allowUnauthenticated: true, but not with both', () => {
    expect(issuesOf(GOOD)).toEqual([])
    expect(issuesOf({ baseUrl: GOOD.baseUrl, apiKey: KEY, allowUnauthenticated: true })).toEqual([])
    expect(issuesOf({ ...GOOD, allowUnauthenticated: false })).toEqual([])
    expect(issuesOf({ ...GOOD, allowUnauthenticated: true })).toEqual([
      { path: 'allowUnauthenticated', message: 'cannot be combined with authorize: pass authorize to check each caller, or allowUnauthenticated: true alone to let every caller through' },
    ])
  })

  it('takes a function as authorize and a boolean as allowUnauthenticated, nothing that merely looks like one', () => {
    expect(issuesOf({ ...GOOD, authorize: true })).toEqual([{ path: 'authorize', message: 'must be a function (request) => boolean | Response (got true)' }])
    expect(issuesOf({ baseUrl: GOOD.baseUrl, apiKey: KEY, allowUnauthenticated: 'yes' })).toEqual([
      { path: 'allowUnauthenticated', message: 'must be true or false (got "yes")' },
      { path: 'authorize', message: REQUIRED },
    ])
  })
})

describe('createGatewayHandler: the key never crosses the network in clear text', () => {
  const CLEAR = 'is http:// to gateway.internal, not this machine: apiKey would cross the network in clear text; use https://, or pass allowInsecureHttp: true to send it anyway'

  it('refuses a plain http baseUrl to another machine at start, unless allowInsecureHttp: true', () => {
    expect(issuesOf({ ...GOOD, baseUrl: 'http://gateway.internal:8080' })).toEqual([{ path: 'baseUrl', message: CLEAR }])
    expect(issuesOf({ ...GOOD, baseUrl: 'http://gateway.internal:8080', allowInsecureHttp: true })).toEqual([])
    expect(issuesOf({ ...GOOD, baseUrl: 'http://gateway.internal', allowInsecureHttp: 'yes' })).toEqual([
      { path: 'allowInsecureHttp', message: 'must be true or false (got "yes")' },
      { path: 'baseUrl', message: CLEAR },
    ])
  })

  it.each(['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'https://gateway.internal'])('accepts %s: this machine, or https', (baseUrl) => {
    expect(issuesOf({ ...GOOD, baseUrl })).toEqual([])
  })
})

describe('createGatewayHandler: every option checked at start', () => {
  it('refuses extra headers that would break or split every call', async () => {
    const gateway = fakeFetch()
    const crlf = { ...GOOD, fetch: gateway.fetch, headers: { 'x-team': 'web\r\nx-injected: 1' } }
    expect(issuesOf(crlf)).toEqual([{ path: 'headers.x-team', message: 'must be one line of printable characters (no CR, LF or other control characters)' }])
    expect(gateway.calls).toEqual([])
    const line = 'must be one line of printable characters (no CR, LF or other control characters)'
    for (const value of ['a\nb', 'a\rb', 'a\0b', 'a\x7fb', 'a\x1bb', 'snow ☃']) expect(issuesOf({ ...GOOD, headers: { 'x-a': value } }), JSON.stringify(value)).toEqual([{ path: 'headers.x-a', message: line }])
    for (const name of ['x a', 'x:a', 'x\r\na', '', 'é']) expect(issuesOf({ ...GOOD, headers: { [name]: 'v' } }), name).toEqual([{ path: `headers.${name}`, message: 'is not a valid header name' }])
    expect(issuesOf({ ...GOOD, headers: { 'x-n': 1, 'x-u': undefined } })).toEqual([
      { path: 'headers.x-n', message: 'must be a string (got number)' },
      { path: 'headers.x-u', message: 'must be a string (got undefined)' },
    ])
    for (const name of ['Host', 'content-length', 'Transfer-Encoding', 'connection', 'expect', 'upgrade']) {
      expect(issuesOf({ ...GOOD, headers: { [name]: 'x' } }), name).toEqual([{ path: `headers.${name}`, message: 'is set by the connection and cannot be sent as an extra header' }])
    }
    expect(issuesOf({ ...GOOD, headers: { 'X-Team': 'a', 'x-team': 'b' } })).toEqual([{ path: 'headers.x-team', message: 'is given twice (header names ignore case)' }])
    for (const headers of [[['x-a', 'b']], 'x-a: b', null]) expect(issuesOf({ ...GOOD, headers }), String(headers)).toEqual([{ path: 'headers', message: 'must be an object of header names and string values' }])
  })

  it('sends headers it accepted, tabs and Latin-1 included', async () => {
    const gateway = fakeFetch()
    const handler = createGatewayHandler({ ...GOOD, fetch: gateway.fetch, headers: { 'x-a': 'one\ttwo', 'x-b': 'café' } })
    expect((await handler(callPost(RESPONSES, { model: 'm' }))).status).toBe(200)
    expect(gateway.calls[0]!.headers).toMatchObject({ 'x-a': 'one\ttwo', 'x-b': 'café' })
  })

  it('takes bodyTimeoutMs as a whole number of milliseconds a timer can hold', () => {
    const rule = (got: string) => [{ path: 'bodyTimeoutMs', message: `must be an integer of milliseconds from 1 to 2147483647 (got ${got})` }]
    for (const [value, got] of [[0, '0'], [-5, '-5'], [1.5, '1.5'], ['200', '"200"'], [2 ** 31, '2147483648'], [Number.NaN, 'NaN'], [null, 'null']] as const) {
      expect(issuesOf({ ...GOOD, bodyTimeoutMs: value }), String(value)).toEqual(rule(got))
    }
    expect(issuesOf({ ...GOOD, bodyTimeoutMs: 1 })).toEqual([])
  })

  it('takes models as names, and functions where a function is called', () => {
    expect(issuesOf({ ...GOOD, models: 'gpt-4.1-mini' })).toEqual([{ path: 'models', message: 'must be an array of model names (got "gpt-4.1-mini")' }])
    expect(issuesOf({ ...GOOD, models: ['gpt-4.1-mini', 7, ' '] })).toEqual([
      { path: 'models.1', message: 'must be a model name (got 7)' },
      { path: 'models.2', message: 'must be a model name (got " ")' },
    ])
    expect(issuesOf({ ...GOOD, onError: 'console' })).toEqual([{ path: 'onError', message: 'must be a function (got "console")' }])
    expect(issuesOf({ ...GOOD, fetch: {} })).toEqual([{ path: 'fetch', message: 'must be a function (got [object Object])' }])
    expect(issuesOf({ ...GOOD, allowUnknownTextToVideoFields: 'true' })).toEqual([{ path: 'allowUnknownTextToVideoFields', message: 'must be true or false' }])
    expect(issuesOf({ ...GOOD, taskEndpoints: {} })).toEqual([{ path: 'taskEndpoints', message: 'must be an array of task endpoints (see taskEndpoint)' }])
  })

  it('refuses an option it does not know, so a misspelt one does not keep its default unseen', () => {
    expect(issuesOf({ ...GOOD, bodyTimeout: 200 })).toEqual([{ path: 'bodyTimeout', message: expect.stringMatching(/^is not an option of createGatewayHandler \(the options are baseUrl, apiKey, .*bodyTimeoutMs/) }])
  })

  it('lists every issue in one error', () => {
    const issues = issuesOf({ baseUrl: 'gateway', apiKey: KEY, headers: { 'x-a': 'a\r\nb' }, bodyTimeoutMs: 0, models: [1], onError: 1, fetch: 1 })
    expect(issues.map((i) => i.path)).toEqual(['baseUrl', 'authorize', 'models.0', 'bodyTimeoutMs', 'headers.x-a', 'fetch', 'onError'])
  })

  it('names a function given where something else belongs as one', () => {
    expect(issuesOf({ ...GOOD, models: () => ['m'] })).toEqual([{ path: 'models', message: 'must be an array of model names (got a function)' }])
  })

  it('needs a fetch option where there is no global fetch, and only there', () => {
    vi.stubGlobal('fetch', undefined)
    try {
      expect(issuesOf(GOOD)).toEqual([{ path: 'fetch', message: 'is required where no global fetch exists' }])
      expect(issuesOf({ ...GOOD, fetch: async () => new Response() })).toEqual([])
    } finally {
      vi.unstubAllGlobals()
    }
    expect(issuesOf(GOOD)).toEqual([])
  })

  it('takes only an address that starts with http:// or https://, not one that merely holds it', () => {
    for (const baseUrl of ['ftp://gateway.example/https://gateway.example', 'xhttps://gateway.example']) {
      expect(issuesOf({ ...GOOD, baseUrl }), baseUrl).toEqual([{ path: 'baseUrl', message: 'must be an http:// or https:// URL' }])
    }
  })

  it('lets a failure in reading a task endpoint (a throwing getter) through as it is', () => {
    const endpoint = {
      get name(): string {
        throw new Error('the getter failed')
      },
    }
    expect(() => createGatewayHandler({ ...GOOD, taskEndpoints: [endpoint] } as unknown as GatewayHandlerOptions)).toThrow('the getter failed')
  })
})
