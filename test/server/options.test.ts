import { afterEach, describe, expect, it, vi } from 'vitest'
import { endpoints, isInvalidRequestError } from '../../src/index.js'
import { createGatewayHandler, type GatewayHandlerOptions } from '../../src/server/index.js'
import { callPost, fakeFetch, KEY, RESPONSES } from './helpers.js'

const GOOD = { baseUrl: 'https://gateway.example', apiKey: KEY, authorize: () => true }

/** The error `createGatewayHandler` throws for `options`, or undefined when it accepts them. */
function refusal(options: unknown): { message: string; issues: readonly { path: string; message: string }[] } | undefined {
  try {
    createGatewayHandler(options as GatewayHandlerOptions)
    return undefined
  } catch (error) {
    expect(isInvalidRequestError(error), String(error)).toBe(true)
    return error as { message: string; issues: readonly { path: string; message: string }[] }
  }
}

describe('createGatewayHandler options', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('names each broken option in the message a server operator reads', () => {
    expect(refusal({ ...GOOD, baseUrl: 'gateway.example' })?.message).toBe('Invalid gateway handler options: baseUrl: must be an http:// or https:// URL. Nothing was sent.')
    expect(refusal({ ...GOOD, apiKey: '   ' })?.issues).toEqual([{ path: 'apiKey', message: 'is required (the gateway token, held on the server)' }])
    expect(refusal({ ...GOOD, basePath: 'api/rxgate' })?.issues).toEqual([{ path: 'basePath', message: 'must be a path such as /api/rxgate (got "api/rxgate")' }])
    expect(refusal({ ...GOOD, maxBodyBytes: 1.5 })?.issues).toEqual([{ path: 'maxBodyBytes', message: 'must be a positive integer (got 1.5)' }])
    expect(refusal({ ...GOOD, maxReplyBytes: -1 })?.issues).toEqual([{ path: 'maxReplyBytes', message: 'must be a positive integer (got -1)' }])
    expect(refusal({ ...GOOD, responsesPath: 'vendors/v1/responses' })?.issues).toEqual([{ path: 'responsesPath', message: 'must be a path such as /vendors/vendor-a/v1/responses' }])
    expect(refusal({ ...GOOD, fetch: 'not a function' })?.issues).toEqual([{ path: 'fetch', message: 'must be a function (got "not a function")' }])
  })

  it('refuses a missing options object with an InvalidRequestError, not a TypeError', () => {
    expect(refusal(undefined)?.issues.map((i) => i.path)).toEqual(['baseUrl', 'apiKey', 'authorize'])
  })

  it('takes strings only, not values that merely print as one', () => {
    expect(refusal({ ...GOOD, baseUrl: new URL('https://gateway.example') })?.issues).toEqual([{ path: 'baseUrl', message: 'must be an http:// or https:// URL' }])
    expect(refusal({ ...GOOD, basePath: ['/api'] })?.issues).toEqual([{ path: 'basePath', message: 'must be a path such as /api/rxgate (got ["/api"])' }])
    expect(refusal({ ...GOOD, responsesPath: ['/v1/responses'] })?.issues).toEqual([{ path: 'responsesPath', message: 'must be a path such as /vendors/vendor-a/v1/responses' }])
  })

  it('takes only an http(s) URL that starts the address as baseUrl', () => {
    for (const baseUrl of ['ftp://gateway.example', 'gateway.example/http://x', 'http:///path', 42]) {
      expect(refusal({ ...GOOD, baseUrl })?.issues, String(baseUrl)).toEqual([{ path: 'baseUrl', message: 'must be an http:// or https:// URL' }])
    }
    expect(refusal({ ...GOOD, baseUrl: 'http://127.0.0.1:8080' })).toBeUndefined()
  })

  it('takes a basePath of clean segments, or none', () => {
    for (const basePath of ['/api/', '/api rx', 'api', '/a//b']) expect(refusal({ ...GOOD, basePath })?.issues[0]?.path, basePath).toBe('basePath')
    for (const basePath of ['', '/api', '/v1.2/gw~x/a-b_c']) expect(refusal({ ...GOOD, basePath }), basePath).toBeUndefined()
  })

  it('takes a responsesPath of one or more clean segments only', () => {
    for (const responsesPath of ['', '/', 'v1/responses', '/v1/responses/', 'x/v1/responses', '/v1//responses', 7]) {
      expect(refusal({ ...GOOD, responsesPath })?.issues, String(responsesPath)).toEqual([{ path: 'responsesPath', message: 'must be a path such as /vendors/vendor-a/v1/responses' }])
    }
    expect(refusal({ ...GOOD, responsesPath: '/v2/responses' })).toBeUndefined()
  })

  it('refuses anything in taskEndpoints that is not a task endpoint, by its index', () => {
    const broken = [null, { name: 'x' }, { name: 'x', resultPath: 5 }, { name: 'x', resultPath: 'vendors/x/generation' }]
    const PATH = 'must be a path of segments, such as /vendors/vendor-b/v1/t2v-spark/generation'
    expect(refusal({ ...GOOD, taskEndpoints: [endpoints.videoOne, ...broken] })?.issues).toEqual([
      { path: 'taskEndpoints.1', message: 'must be a task endpoint, such as endpoints.t2vSpark or one made by taskEndpoint() (got null)' },
      { path: 'taskEndpoints.2.kind', message: 'is required' },
      { path: 'taskEndpoints.2.resultPath', message: 'is required' },
      { path: 'taskEndpoints.3.kind', message: 'is required' },
      { path: 'taskEndpoints.3.resultPath', message: PATH },
      { path: 'taskEndpoints.4.kind', message: 'is required' },
      { path: 'taskEndpoints.4.resultPath', message: PATH },
    ])
    expect(refusal({ ...GOOD, taskEndpoints: [endpoints.videoOne, { name: 'app/x', kind: 'video', resultPath: '/x/generation' }] })).toBeUndefined()
  })

  it('refuses task endpoints the task calls would refuse: a path that climbs, has a query or a fragment, no name, no kind', () => {
    const ok = { name: 'app/x', kind: 'video', resultPath: '/x/generation' }
    const PATH = 'must be a path of segments, such as /vendors/vendor-b/v1/t2v-spark/generation'
    for (const resultPath of ['/x/../admin?y', '/x/..', '/x?y=1', '/x#y', '/x//y', '/x/./y']) {
      expect(refusal({ ...GOOD, taskEndpoints: [{ ...ok, resultPath }] })?.issues, resultPath).toEqual([{ path: 'taskEndpoints.0.resultPath', message: PATH }])
    }
    expect(refusal({ ...GOOD, taskEndpoints: [{ ...ok, createPath: '/x/../admin' }] })?.issues).toEqual([{ path: 'taskEndpoints.0.createPath', message: PATH }])
    expect(refusal({ ...GOOD, taskEndpoints: [{ kind: 'video', resultPath: '/x' }] })?.issues.map((i) => i.path)).toEqual(['taskEndpoints.0.name'])
    expect(refusal({ ...GOOD, taskEndpoints: [{ name: 'app/x', kind: 'audio', resultPath: '/x' }] })?.issues).toEqual([{ path: 'taskEndpoints.0.kind', message: 'must be "video" or "image"' }])
  })

  it('takes as baseUrl only an address a path can be appended to: no query, fragment or credentials', () => {
    expect(refusal({ ...GOOD, baseUrl: 'https://gw.example.com?a=1' })?.issues).toEqual([{ path: 'baseUrl', message: 'must have no query: each path is appended to it (got "https://gw.example.com?a=1")' }])
    expect(refusal({ ...GOOD, baseUrl: 'https://gw.example.com/root?' })?.issues[0]?.message).toMatch(/^must have no query/)
    expect(refusal({ ...GOOD, baseUrl: 'https://gw.example.com/#x' })?.issues[0]?.message).toMatch(/^must have no fragment/)
    expect(refusal({ ...GOOD, baseUrl: 'https://gw.example.com#' })?.issues[0]?.message).toMatch(/^must have no fragment/)
    for (const baseUrl of ['https://user@gw.example.com', 'https://:secret@gw.example.com', 'https://u:p@gw.example.com/root']) {
      expect(refusal({ ...GOOD, baseUrl })?.issues, baseUrl).toEqual([{ path: 'baseUrl', message: 'must have no user name or password in it: the gateway token is apiKey' }])
    }
    for (const baseUrl of ['https://gw exa mple.com', 'http://[::1', 'https://gw.example.com:99999']) {
      expect(refusal({ ...GOOD, baseUrl })?.issues, baseUrl).toEqual([{ path: 'baseUrl', message: 'must be an http:// or https:// URL' }])
    }
    for (const baseUrl of ['HTTPS://GW.example.com', 'https://gw.example.com/root/', 'http://[::1]:8080']) expect(refusal({ ...GOOD, baseUrl }), baseUrl).toBeUndefined()
  })

  it('trims the key and the trailing slashes of baseUrl before they are used', async () => {
    const gateway = fakeFetch()
    const handler = createGatewayHandler({ baseUrl: 'https://gateway.example/root//', apiKey: `  ${KEY}\n`, fetch: gateway.fetch, allowUnauthenticated: true })
    expect((await handler(callPost(RESPONSES, { model: 'm' }))).status).toBe(200)
    expect(gateway.calls[0]!.url).toBe(`https://gateway.example/root${RESPONSES}`)
    expect(gateway.calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('sends extra headers lower-cased, so they cannot double the ones the handler sets', async () => {
    const gateway = fakeFetch()
    const headers = { 'X-Team': 'web', Accept: 'text/html', 'Content-Type': 'text/plain' }
    const handler = createGatewayHandler({ ...GOOD, headers, fetch: gateway.fetch })
    await handler(callPost(RESPONSES, { model: 'm' }))
    expect(gateway.calls[0]!.headers).toEqual({ 'x-team': 'web', accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${KEY}` })
  })

  it('refuses an Authorization among the extra headers, in any case, rather than dropping it unsaid', () => {
    for (const name of ['Authorization', 'authorization', 'AUTHORIZATION']) {
      expect(refusal({ ...GOOD, headers: { 'x-team': 'web', [name]: 'Bearer not-this' } })?.issues, name).toEqual([
        { path: `headers.${name}`, message: 'cannot be an extra header: the handler sends Authorization from apiKey' },
      ])
    }
  })

  it('reports unexpected failures on the console by default', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const failure = new Error('session store down')
    const handler = createGatewayHandler({
      ...GOOD,
      fetch: fakeFetch().fetch,
      authorize: () => {
        throw failure
      },
    })
    expect((await handler(callPost(RESPONSES, { model: 'm' }))).status).toBe(500)
    expect(logged).toHaveBeenCalledWith('rxgate/server:', failure)
  })
})
