import util from 'node:util'
import { describe, expect, it } from 'vitest'
import { ConnectionError, createGateway, GatewayError, HttpError, ResponseFailedError, TimeoutError, ValidationError, type GatewayOptions } from '../../src/index.js'
import { errorOf, observe } from '../helpers/collect.js'
import { frame, KEY, lifecycle, response, TRANSPORTS } from '../helpers/fixtures.js'
import { ManualScheduler } from '../helpers/scheduler.js'
import { closedPort, sendJson, startServer, startSse } from '../helpers/server.js'

/** Every way an error gets logged. */
function renderings(err: unknown): Record<string, string> {
  const e = err as Error & { cause?: unknown }
  return {
    message: e.message,
    string: String(e),
    stack: String(e.stack),
    cause: util.inspect(e.cause, { depth: Number.POSITIVE_INFINITY }),
    json: JSON.stringify(e),
    inspect: util.inspect(e, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  }
}

function expectNoKey(err: unknown, key = KEY): void {
  expect(err).toBeInstanceOf(GatewayError)
  for (const [how, text] of Object.entries(renderings(err))) {
    expect(text.includes(key), `the key appears in the error's ${how}: ${text.slice(0, 400)}`).toBe(false)
  }
}

describe.each(TRANSPORTS)('the API key never appears in an error, over $name', ({ options }) => {
  const gatewayFor = (url: string, more: Partial<GatewayOptions> = {}) => createGateway({ baseUrl: url, apiKey: KEY, retry: false, ...options, ...more })

  describe('when the gateway echoes it in an error body', () => {
    it.each([
      ['an OpenAI error object', (k: string) => JSON.stringify({ error: { message: `Incorrect API key provided: ${k}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } })],
      ['detail', (k: string) => JSON.stringify({ detail: `Authorization: Bearer ${k} is revoked` })],
      ['message and code', (k: string) => JSON.stringify({ message: `bad key ${k}`, code: k })],
      ['task_info.error', (k: string) => JSON.stringify({ task_info: { error: { code: 401, title: `key ${k}`, detail: `key ${k} unknown` } } })],
      ['plain text', (k: string) => `401 Unauthorized: Bearer ${k}`],
      ['a long body with the key past the message limit', (k: string) => JSON.stringify({ detail: `${'x'.repeat(490)} ${k} ${'y'.repeat(100)}` })],
      ['the key several times', (k: string) => JSON.stringify({ error: `${k}${k} and ${k}` })],
    ])('in %s', async (_, body) => {
      const server = await startServer((_, res) => sendJson(res, 401, body(KEY)))
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(HttpError)
      expect(err).toMatchObject({ status: 401, kind: 'auth' })
      expectNoKey(err)
    })

    it('in a JSON body that escapes "/" as "\\/" (as PHP and some Java encoders do)', async () => {
      const key = 'sk-live/Zm9v+YmFy/cXV4=='
      const server = await startServer((_, res) => sendJson(res, 401, JSON.stringify({ error: { message: `Invalid key ${key}` } }).replaceAll('/', '\\/')))
      const err = await errorOf(gatewayFor(server.url, { apiKey: key }).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(HttpError)
      expectNoKey(err, key)
    })

    it('in the error body of a stream request', async () => {
      const server = await startServer((_, res) => sendJson(res, 403, { error: { message: `key ${KEY} lacks access` } }))
      expectNoKey(await errorOf(gatewayFor(server.url).responses$({ model: 'm', stream: true })))
    })
  })

  describe('when the gateway echoes it in a reply it then fails', () => {
    it('in a 200 payload that breaks the Response schema (ValidationError)', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, { id: 'resp_1', object: 'response', status: 'completed', echo: { authorization: `Bearer ${KEY}` } }))
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ValidationError)
      expectNoKey(err)
    })

    it('in a 200 reply that is not JSON (ValidationError)', async () => {
      const server = await startServer((_, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`debug: received Authorization: Bearer ${KEY}`)
      })
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ValidationError)
      expectNoKey(err)
    })

    it('in a failed Response (ResponseFailedError)', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ status: 'failed', error: { code: 'auth', message: `upstream refused key ${KEY}` } })))
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ResponseFailedError)
      expectNoKey(err)
    })

    it('in an error event (ResponseFailedError)', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.end(frame(lifecycle('response.created', 0)) + frame({ type: 'error', sequence_number: 1, code: 'auth', message: `key ${KEY} rejected upstream` }))
      })
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(err).toBeInstanceOf(ResponseFailedError)
      expectNoKey(err)
    })

    it('in a stream event that breaks its schema (ValidationError)', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.end(frame({ type: 'response.output_text.delta', sequence_number: 0, delta: 1, echo: KEY }))
      })
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(err).toBeInstanceOf(ValidationError)
      expectNoKey(err)
    })
  })

  describe('in transport failures', () => {
    it('a refused connection (ConnectionError and its cause)', async () => {
      const port = await closedPort()
      const err = await errorOf(gatewayFor(`http://127.0.0.1:${port}`).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ConnectionError)
      expectNoKey(err)
    })

    it('a connection cut mid-reply (ConnectionError and its cause)', async () => {
      const server = await startServer((_, res, raw) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
        res.write('{"id":', () => raw.socket.destroy())
      })
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ConnectionError)
      expectNoKey(err)
    })

    it('a timeout (TimeoutError)', async () => {
      const scheduler = new ManualScheduler()
      const server = await startServer(() => {})
      const o = observe(gatewayFor(server.url, { scheduler, timeoutMs: 1_000 }).responses$({ model: 'm' }))
      await server.request(1)
      scheduler.advanceBy(1_000)
      const { error } = await o.done
      expect(error).toBeInstanceOf(TimeoutError)
      expectNoKey(error)
    })
  })
})
