import util from 'node:util'
import { lastValueFrom } from 'rxjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGateway, GatewayError, InvalidRequestError, type GatewayOptions } from '../src/index.js'
import { collect } from './helpers/collect.js'
import { KEY, response, TRANSPORTS } from './helpers/fixtures.js'
import { sendJson, startServer } from './helpers/server.js'

afterEach(() => {
  vi.restoreAllMocks()
})

function creationError(options: unknown): InvalidRequestError {
  try {
    createGateway(options as GatewayOptions)
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    expect(err).toBeInstanceOf(GatewayError)
    return err as InvalidRequestError
  }
  throw new Error('createGateway did not throw')
}

describe('createGateway options', () => {
  it.each([
    ['missing baseUrl', { apiKey: KEY }, 'baseUrl'],
    ['empty baseUrl', { baseUrl: '', apiKey: KEY }, 'baseUrl'],
    ['non-string baseUrl', { baseUrl: 42, apiKey: KEY }, 'baseUrl'],
    ['baseUrl that is not http(s)', { baseUrl: 'ftp://gateway.test', apiKey: KEY }, 'baseUrl'],
    ['baseUrl without a scheme', { baseUrl: 'gateway.test', apiKey: KEY }, 'baseUrl'],
    ['missing apiKey', { baseUrl: 'https://gateway.test' }, 'apiKey'],
    ['empty apiKey', { baseUrl: 'https://gateway.test', apiKey: '' }, 'apiKey'],
    ['blank apiKey', { baseUrl: 'https://gateway.test', apiKey: '   ' }, 'apiKey'],
    ['non-string apiKey', { baseUrl: 'https://gateway.test', apiKey: 123 }, 'apiKey'],
    ['zero timeoutMs', { baseUrl: 'https://gateway.test', apiKey: KEY, timeoutMs: 0 }, 'timeoutMs'],
    ['negative timeoutMs', { baseUrl: 'https://gateway.test', apiKey: KEY, timeoutMs: -1 }, 'timeoutMs'],
    ['NaN timeoutMs', { baseUrl: 'https://gateway.test', apiKey: KEY, timeoutMs: Number.NaN }, 'timeoutMs'],
    ['timeoutMs beyond what a timer holds', { baseUrl: 'https://gateway.test', apiKey: KEY, timeoutMs: 2 ** 31 }, 'timeoutMs'],
  ])('throws InvalidRequestError at creation for a %s', (_, options, field) => {
    const err = creationError(options)
    expect(err.issues.map((i) => i.path)).toContain(field)
    expect(err.message).toContain(field)
  })

  it('throws for no options at all, naming both required fields', () => {
    const err = creationError(undefined)
    expect(err.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['baseUrl', 'apiKey']))
  })

  it('never puts the apiKey in a creation error', () => {
    const err = creationError({ baseUrl: 'not a url', apiKey: KEY })
    for (const text of [err.message, JSON.stringify(err), util.inspect(err, { depth: Number.POSITIVE_INFINITY })]) expect(text).not.toContain(KEY)
  })

  it('sends nothing when created, and nothing until subscribed', () => {
    const fetch = vi.fn<typeof globalThis.fetch>()
    const gateway = createGateway({ baseUrl: 'https://gateway.test', apiKey: KEY, fetch })
    gateway.responses$({ model: 'm', input: 'hi' })
    gateway.retrieveResponse$('resp_1')
    gateway.cancelResponse$('resp_1')
    expect(fetch).not.toHaveBeenCalled()
  })
})

describe.each(TRANSPORTS)('requests over $name', ({ options }) => {
  it('sends the bearer token, JSON headers, extra headers and the body as given', async () => {
    const server = await startServer((_, res) => sendJson(res, 200, response()))
    const gateway = createGateway({
      baseUrl: server.url,
      apiKey: KEY,
      headers: { 'X-Trace-Id': 'abc', Authorization: 'Bearer someone-else' },
      ...options,
    })
    const body = { model: 'gpt-test', input: 'Héllo — 🚀', temperature: 0.5, metadata: { a: 'b' } }
    await lastValueFrom(gateway.responses$(body))
    const [req] = server.requests
    expect(req).toMatchObject({ method: 'POST', path: '/vendors/vendor-a/v1/responses', json: body })
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(req!.headers['content-type']).toMatch(/^application\/json/)
    expect(req!.headers.accept).toMatch(/application\/json/)
    expect(req!.headers['x-trace-id']).toBe('abc')
  })

  it('trims the apiKey and a trailing slash of baseUrl, and keeps a base path', async () => {
    const server = await startServer((_, res) => sendJson(res, 200, response()))
    const gateway = createGateway({ baseUrl: `${server.url}/api/`, apiKey: `  ${KEY}\n`, ...options })
    await lastValueFrom(gateway.responses$({ model: 'm' }))
    expect(server.requests[0]!.path).toBe('/api/vendors/vendor-a/v1/responses')
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('uses responsesPath for creation, retrieval and cancellation', async () => {
    const server = await startServer((req, res) => sendJson(res, 200, response({ status: req.path.endsWith('/cancel') ? 'cancelled' : 'completed' })))
    const gateway = createGateway({ baseUrl: server.url, apiKey: KEY, responsesPath: '/v1/responses', ...options })
    await lastValueFrom(gateway.responses$({ model: 'm' }))
    await lastValueFrom(gateway.retrieveResponse$('resp_9'))
    expect(await lastValueFrom(gateway.cancelResponse$('resp_9'))).toMatchObject({ status: 'cancelled' })
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/responses', 'GET /v1/responses/resp_9', 'POST /v1/responses/resp_9/cancel'])
  })

  it('sends a request per subscription (cold)', async () => {
    const server = await startServer((_, res) => sendJson(res, 200, response()))
    const gateway = createGateway({ baseUrl: server.url, apiKey: KEY, ...options })
    const once$ = gateway.responses$({ model: 'm' })
    expect(server.requests).toHaveLength(0)
    await lastValueFrom(once$)
    await lastValueFrom(once$)
    expect(server.requests).toHaveLength(2)
  })
})

describe('transport choice', () => {
  it('uses undici, not the global fetch, by default in Node', async () => {
    const server = await startServer((_, res) => sendJson(res, 200, response()))
    const globalFetch = vi.spyOn(globalThis, 'fetch')
    const gateway = createGateway({ baseUrl: server.url, apiKey: KEY })
    expect(await lastValueFrom(gateway.responses$({ model: 'm' }))).toMatchObject({ id: 'resp_1' })
    expect(server.requests).toHaveLength(1)
    expect(globalFetch).not.toHaveBeenCalled()
  })

  it('uses the injected fetch when one is given', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json(response({ id: 'resp_fake' })))
    const gateway = createGateway({ baseUrl: 'https://gateway.test', apiKey: KEY, fetch })
    expect(await lastValueFrom(gateway.responses$({ model: 'm' }))).toMatchObject({ id: 'resp_fake' })
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0]!
    expect(String(url)).toBe('https://gateway.test/vendors/vendor-a/v1/responses')
    expect(init).toMatchObject({ method: 'POST' })
    expect(new Headers(init!.headers).get('authorization')).toBe(`Bearer ${KEY}`)
    expect(init!.signal).toBeInstanceOf(AbortSignal)
  })

  it('refuses an id that would change the path, sending nothing', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>()
    const gateway = createGateway({ baseUrl: 'https://gateway.test', apiKey: KEY, fetch })
    for (const id of ['', 'a/b', '../x', '..', 'a?b', 'a#b', 'a b', '%2F']) {
      expect((await collect(gateway.retrieveResponse$(id))).error).toBeInstanceOf(InvalidRequestError)
      expect((await collect(gateway.cancelResponse$(id))).error).toBeInstanceOf(InvalidRequestError)
    }
    expect(fetch).not.toHaveBeenCalled()
  })
})
