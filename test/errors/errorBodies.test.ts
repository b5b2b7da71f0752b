import nock from 'nock'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGateway, GatewayError, HttpError } from '../../src/index.js'
import { errorOf } from '../helpers/collect.js'
import { KEY, response } from '../helpers/fixtures.js'

// nock intercepts fetch, so these tests use an injected fetch (the undici
// default transport is covered against loopback servers elsewhere).
const BASE = 'https://gateway.test'
const PATH = '/vendors/vendor-a/v1/responses'

const gateway = () =>
  createGateway({ baseUrl: BASE, apiKey: KEY, fetch: (i, init) => globalThis.fetch(i, init), retry: false })

const create = () => errorOf(gateway().responses$({ model: 'm', input: 'hi' }))

beforeEach(() => {
  nock.disableNetConnect()
})
afterEach(() => {
  const pending = nock.pendingMocks()
  nock.cleanAll()
  nock.enableNetConnect()
  expect(pending).toEqual([])
})

describe('HttpError from every error body shape', () => {
  it.each([
    [401, { detail: 'Invalid token' }, 'auth', undefined, 'Invalid token'],
    [402, { error: 'Insufficient balance' }, 'payment', undefined, 'Insufficient balance'],
    [429, { message: 'Daily spend cap reached', code: 'spend_cap' }, 'rate_limit', 'spend_cap', 'Daily spend cap reached'],
    [
      400,
      { error: { message: "Invalid 'temperature': decimal above maximum value.", type: 'invalid_request_error', param: 'temperature', code: 'decimal_above_max_value' } },
      'rejected',
      'decimal_above_max_value',
      "Invalid 'temperature': decimal above maximum value.",
    ],
    [404, { task_info: { id: 'x', error: { code: 4002, title: 'Not Found', detail: 'unknown task id' } } }, 'not_found', 4002, 'unknown task id'],
    [403, { task_info: { error: { code: 4008, title: 'Forbidden' } } }, 'auth', 4008, 'Forbidden'],
    [500, { error: { message: 'upstream failed', type: 'server_error', code: null } }, 'server', 'server_error', 'upstream failed'],
  ])('%i %j', async (status, body, kind, code, message) => {
    nock(BASE).post(PATH).reply(status, body)
    const err = (await create()) as HttpError
    expect(err).toBeInstanceOf(HttpError)
    expect(err).toBeInstanceOf(GatewayError)
    expect({ status: err.status, kind: err.kind, code: err.code, gatewayMessage: err.gatewayMessage }).toEqual({ status, kind, code, gatewayMessage: message })
    expect(err.message).toContain(message)
    expect(err.message).toContain(String(status))
  })

  it('reports a non-JSON body as it came', async () => {
    nock(BASE).post(PATH).reply(502, '<html><head><title>502 Bad Gateway</title></head></html>', { 'content-type': 'text/html' })
    const err = (await create()) as HttpError
    expect(err).toMatchObject({ status: 502, kind: 'server', code: undefined })
    expect(err.gatewayMessage).toContain('502 Bad Gateway')
  })

  it('reports an empty body', async () => {
    nock(BASE).post(PATH).reply(503)
    const err = (await create()) as HttpError
    expect(err).toMatchObject({ status: 503, kind: 'server', code: undefined, gatewayMessage: undefined })
    expect(err.message).toContain('503')
  })

  it('reports a JSON body of an unknown shape without failing', async () => {
    nock(BASE).post(PATH).reply(409, { whatever: [1, 2, 3] })
    const err = (await create()) as HttpError
    expect(err).toMatchObject({ status: 409, kind: 'rejected', gatewayMessage: undefined })
  })

  it('reports a truncated JSON body', async () => {
    nock(BASE).post(PATH).reply(500, '{"error":{"message":"half', { 'content-type': 'application/json' })
    const err = (await create()) as HttpError
    expect(err).toMatchObject({ status: 500, gatewayMessage: '{"error":{"message":"half' })
  })

  it.each([405, 409, 423, 451])('reports %i as rejected', async (status) => {
    nock(BASE).post(PATH).reply(status, { detail: 'no' })
    expect(await create()).toMatchObject({ status, kind: 'rejected', gatewayMessage: 'no' })
  })
})

describe('Retry-After on an HttpError', () => {
  it('reads seconds', async () => {
    nock(BASE).post(PATH).reply(429, { message: 'slow down' }, { 'Retry-After': '7' })
    expect(await create()).toMatchObject({ status: 429, retryAfterMs: 7_000 })
  })

  it('reads an HTTP date', async () => {
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 30_000)
    nock(BASE).post(PATH).reply(503, '', { 'Retry-After': at.toUTCString() })
    const err = (await create()) as HttpError
    expect(err.retryAfterMs).toBeGreaterThan(25_000)
    expect(err.retryAfterMs).toBeLessThanOrEqual(31_000)
  })

  it('reads a past HTTP date as 0', async () => {
    nock(BASE).post(PATH).reply(503, '', { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' })
    expect(await create()).toMatchObject({ retryAfterMs: 0 })
  })

  it('reads retry-after-ms', async () => {
    nock(BASE).post(PATH).reply(429, '', { 'retry-after-ms': '250', 'Retry-After': '9' })
    expect(await create()).toMatchObject({ retryAfterMs: 250 })
  })

  it('ignores a garbage Retry-After', async () => {
    nock(BASE).post(PATH).reply(429, '', { 'Retry-After': 'later, maybe' })
    expect(await create()).toMatchObject({ status: 429, retryAfterMs: undefined })
  })

  it('has none when the header is absent', async () => {
    nock(BASE).post(PATH).reply(429, '')
    expect(await create()).toMatchObject({ status: 429, retryAfterMs: undefined })
  })
})

describe('a stream request rejected before it starts', () => {
  it('ends in the HttpError of the JSON error body', async () => {
    nock(BASE)
      .post(PATH)
      .reply(400, { error: { message: 'stream not supported for this model', type: 'invalid_request_error', param: 'stream', code: 'unsupported' } })
    const err = await errorOf(gateway().responses$({ model: 'm', input: 'hi', stream: true }))
    expect(err).toMatchObject({ name: 'HttpError', status: 400, code: 'unsupported', gatewayMessage: 'stream not supported for this model' })
  })
})

describe('with nock: a successful reply still validates', () => {
  it('emits the Response', async () => {
    nock(BASE).post(PATH).reply(200, response())
    const { lastValueFrom } = await import('rxjs')
    expect(await lastValueFrom(gateway().responses$({ model: 'm', input: 'hi' }))).toMatchObject({ id: 'resp_1', status: 'completed' })
  })
})
