import type http from 'node:http'
import { lastValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { ConnectionError, createGateway, GatewayError, HttpError, TimeoutError, ValidationError, type GatewayOptions } from '../../src/index.js'
import { collect, errorOf, observe } from '../helpers/collect.js'
import { delta, frame, KEY, lifecycle, response, TRANSPORTS } from '../helpers/fixtures.js'
import { ManualScheduler } from '../helpers/scheduler.js'
import { closedPort, sendJson, settle, startServer, startSse, waitFor, type SeenRequest } from '../helpers/server.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'

/** A handler that answers the first `failures.length` requests with those statuses (or drops the connection), then 200. */
function failThenSucceed(failures: (number | 'drop')[], headers: Record<string, string> = {}) {
  let n = 0
  return (_: SeenRequest, res: http.ServerResponse, raw: http.IncomingMessage) => {
    const failure = failures[n++]
    if (failure === 'drop') return raw.socket.destroy()
    if (failure !== undefined) return sendJson(res, failure, { error: { message: `failure ${n}` } }, headers)
    sendJson(res, 200, response())
  }
}

describe.each(TRANSPORTS)('HTTP over $name', ({ options }) => {
  const gatewayFor = (url: string, more: Partial<GatewayOptions> = {}) =>
    createGateway({ baseUrl: url, apiKey: KEY, retry: { baseDelayMs: 0 }, ...options, ...more })

  describe('retries of a GET (reading a response)', () => {
    it.each([408, 429, 500, 502, 503, 504])('retries after %i and succeeds', async (status) => {
      const server = await startServer(failThenSucceed([status]))
      const r = await lastValueFrom(gatewayFor(server.url).retrieveResponse$('resp_1'))
      expect(r).toMatchObject({ id: 'resp_1' })
      expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET ${RESPONSES}/resp_1`, `GET ${RESPONSES}/resp_1`])
    })

    it('retries after the connection dropped before the reply', async () => {
      const server = await startServer(failThenSucceed(['drop', 'drop']))
      expect(await lastValueFrom(gatewayFor(server.url).retrieveResponse$('resp_1'))).toMatchObject({ id: 'resp_1' })
      expect(server.requests).toHaveLength(3)
    })

    it('gives up after `count` retries with the last error', async () => {
      const server = await startServer(failThenSucceed([500, 502, 503, 503]))
      const err = await errorOf(gatewayFor(server.url, { retry: { count: 2, baseDelayMs: 0 } }).retrieveResponse$('resp_1'))
      expect(err).toBeInstanceOf(HttpError)
      expect(err).toMatchObject({ status: 503, gatewayMessage: 'failure 3' })
      expect(server.requests).toHaveLength(3)
    })

    it.each([400, 401, 402, 403, 404, 409, 422])('does not retry %i', async (status) => {
      const server = await startServer(failThenSucceed([status]))
      expect(await errorOf(gatewayFor(server.url).retrieveResponse$('resp_1'))).toMatchObject({ status })
      expect(server.requests).toHaveLength(1)
    })

    it('does not retry at all with retry: false', async () => {
      const server = await startServer(failThenSucceed([503]))
      expect(await errorOf(gatewayFor(server.url, { retry: false }).retrieveResponse$('resp_1'))).toMatchObject({ status: 503 })
      expect(server.requests).toHaveLength(1)
    })
  })

  describe('retries of a POST (creating a response)', () => {
    it.each([500, 502, 504, 408])('never retries %i: the POST may have been processed', async (status) => {
      const server = await startServer(failThenSucceed([status]))
      expect(await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))).toMatchObject({ name: 'HttpError', status })
      expect(server.requests).toHaveLength(1)
    })

    it('never retries when the connection dropped after sending', async () => {
      const server = await startServer(failThenSucceed(['drop']))
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(err).toMatchObject({ method: 'POST', sent: true })
      expect(server.requests).toHaveLength(1)
    })

    it('never retries a cancel on 500', async () => {
      const server = await startServer(failThenSucceed([500]))
      expect(await errorOf(gatewayFor(server.url).cancelResponse$('resp_1'))).toMatchObject({ status: 500 })
      expect(server.requests).toHaveLength(1)
    })

    it.each([429, 503])('retries %i: the server refused the POST', async (status) => {
      const server = await startServer(failThenSucceed([status]))
      expect(await lastValueFrom(gatewayFor(server.url).responses$({ model: 'm', input: 'x' }))).toMatchObject({ id: 'resp_1' })
      expect(server.requests).toHaveLength(2)
      expect(server.requests[1]!.json).toEqual({ model: 'm', input: 'x' })
    })

    it('retries a streamed POST refused with 429 before the stream started', async () => {
      let n = 0
      const server = await startServer((_, res) => {
        if (n++ === 0) return sendJson(res, 429, { message: 'busy' })
        startSse(res)
        res.end(frame(lifecycle('response.created', 0)) + frame(delta(1, 'ok')) + frame(lifecycle('response.completed', 2)))
      })
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.error).toBeUndefined()
      expect(out.values.map((e) => String(e.type))).toEqual(['response.created', 'response.output_text.delta', 'response.completed'])
      expect(server.requests).toHaveLength(2)
    })

    it('retries a POST whose connection was refused (it never reached the server)', async () => {
      const port = await closedPort()
      const scheduler = new ManualScheduler()
      const gateway = gatewayFor(`http://127.0.0.1:${port}`, { scheduler, retry: { count: 2, baseDelayMs: 1_000 } })
      const o = observe(gateway.responses$({ model: 'm' }))
      // The first attempt is refused; the retry wait (< 1 s) is then pending.
      await waitFor(() => scheduler.pendingDelays.some((d) => d < 1_000), 3_000, 'the retry wait')
      const server = await startServer((_, res) => sendJson(res, 200, response()), { port })
      scheduler.advanceBy(1_000)
      const out = await o.done
      expect(out.error).toBeUndefined()
      expect(out.values).toHaveLength(1)
      expect(server.requests).toHaveLength(1)
    })
  })

  describe('Retry-After', () => {
    it('waits exactly the Retry-After of a 429 before retrying a GET', async () => {
      const scheduler = new ManualScheduler()
      const server = await startServer(failThenSucceed([429], { 'Retry-After': '2' }))
      const o = observe(gatewayFor(server.url, { scheduler, retry: { baseDelayMs: 10 } }).retrieveResponse$('resp_1'))
      await waitFor(() => scheduler.pendingDelays.length === 1 && scheduler.pendingDelays[0] === 2_000, 3_000, 'a 2 s wait')
      scheduler.advanceBy(1_999)
      await settle()
      expect(server.requests).toHaveLength(1)
      scheduler.advanceBy(1)
      await server.request(2)
      expect((await o.done).values).toHaveLength(1)
    })

    it('waits a Retry-After given as an HTTP date before retrying a POST refused with 503', async () => {
      const scheduler = new ManualScheduler()
      const at = new Date(Date.now() + 120_000).toUTCString()
      const server = await startServer(failThenSucceed([503], { 'Retry-After': at }))
      const o = observe(gatewayFor(server.url, { scheduler, retry: { baseDelayMs: 10, maxRetryAfterMs: 300_000 } }).responses$({ model: 'm' }))
      // (the date has whole seconds: the wait is between 119 and 120 s)
      await waitFor(() => scheduler.pendingDelays.length === 1 && scheduler.pendingDelays[0]! > 100_000 && scheduler.pendingDelays[0]! <= 120_000, 3_000, 'a wait of about 2 minutes')
      scheduler.advanceBy(100_000)
      await settle()
      expect(server.requests).toHaveLength(1)
      scheduler.advanceBy(21_000)
      await server.request(2)
      expect((await o.done).values).toHaveLength(1)
    })

    it('does not wait out a Retry-After above maxRetryAfterMs: the error surfaces at once, no timer left', async () => {
      const scheduler = new ManualScheduler()
      const server = await startServer(failThenSucceed([429, 429], { 'Retry-After': '3600' }))
      const err = await errorOf(gatewayFor(server.url, { scheduler, retry: { maxRetryAfterMs: 60_000 } }).retrieveResponse$('resp_1'))
      expect(err).toMatchObject({ name: 'HttpError', status: 429, kind: 'rate_limit', retryAfterMs: 3_600_000 })
      expect(server.requests).toHaveLength(1)
      expect(scheduler.pending).toBe(0)
    })
  })

  describe('timeouts', () => {
    it('aborts a POST that gets no answer within timeoutMs, without retrying it', async () => {
      const scheduler = new ManualScheduler()
      const server = await startServer(() => {})
      const o = observe(gatewayFor(server.url, { scheduler, timeoutMs: 5_000 }).responses$({ model: 'm' }))
      await server.request(1)
      scheduler.advanceBy(4_999)
      await settle()
      expect(o.error).toBeUndefined()
      scheduler.advanceBy(1)
      const { error } = await o.done
      expect(error).toBeInstanceOf(TimeoutError)
      expect(error).toBeInstanceOf(GatewayError)
      expect(error).toMatchObject({ method: 'POST', path: RESPONSES, timeoutMs: 5_000 })
      expect((error as Error).message).toMatch(/timeoutMs/)
      await server.requests[0]!.closedEarly
      await settle()
      expect(server.requests).toHaveLength(1)
      expect(scheduler.pending).toBe(0)
    })

    it('retries a GET that timed out', async () => {
      const scheduler = new ManualScheduler()
      const server = await startServer(() => {})
      const o = observe(gatewayFor(server.url, { scheduler, timeoutMs: 1_000, retry: { count: 1, baseDelayMs: 0 } }).retrieveResponse$('resp_1'))
      await server.request(1)
      scheduler.advanceBy(1_000)
      await server.request(2)
      scheduler.advanceBy(1_000)
      expect((await o.done).error).toBeInstanceOf(TimeoutError)
      await Promise.all(server.requests.map((r) => r.closedEarly))
    })

    it('bounds each silence of a stream, not the whole stream', async () => {
      const scheduler = new ManualScheduler()
      let stream!: http.ServerResponse
      const server = await startServer((_, res) => {
        stream = res
        startSse(res)
        res.write(frame(lifecycle('response.created', 0)))
      })
      const o = observe(gatewayFor(server.url, { scheduler, timeoutMs: 1_000 }).responses$({ model: 'm', stream: true }))
      await waitFor(() => o.values.length === 1)
      for (let i = 1; i <= 3; i++) {
        scheduler.advanceBy(999)
        stream.write(frame(delta(i, `p${i}`)))
        await waitFor(() => o.values.length === i + 1)
      }
      // 3 s have passed in all, never 1 s of silence.
      expect(o.error).toBeUndefined()
      scheduler.advanceBy(1_000)
      const { error, values } = await o.done
      expect(values).toHaveLength(4)
      expect(error).toBeInstanceOf(TimeoutError)
      await server.requests[0]!.closedEarly
    })
  })

  describe('connection failures', () => {
    it('reports a refused connection as a ConnectionError that was not sent', async () => {
      const port = await closedPort()
      const err = await errorOf(gatewayFor(`http://127.0.0.1:${port}`, { retry: false }).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(err).toBeInstanceOf(GatewayError)
      expect(err).toMatchObject({ method: 'POST', path: RESPONSES, sent: false })
      expect((err as Error).message).toMatch(/baseUrl/)
    })

    it('retries a refused GET up to count and then reports it', async () => {
      const port = await closedPort()
      let attempts = 0
      const fetch: typeof globalThis.fetch = (i, init) => {
        attempts++
        return globalThis.fetch(i, init)
      }
      const err = await errorOf(createGateway({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, fetch, retry: { count: 2, baseDelayMs: 0 } }).retrieveResponse$('resp_1'))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(attempts).toBe(3)
    })

    it('reports a connection cut in the middle of a JSON reply', async () => {
      const server = await startServer((_, res, raw) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' })
        res.write('{"id":"resp_1","obj')
        setTimeout(() => raw.socket.destroy(), 5)
      })
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(err).toMatchObject({ sent: true })
      expect(server.requests).toHaveLength(1)
    })

    it('reports a stream cut before the response finished as a ConnectionError, not as a completion', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.end(frame(lifecycle('response.created', 0)) + frame(delta(1, 'half')))
      })
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.values).toHaveLength(2)
      expect(out.completed).toBe(false)
      expect(out.error).toBeInstanceOf(ConnectionError)
    })
  })

  describe('replies', () => {
    it('reads a JSON reply written in pieces that split multibyte characters', async () => {
      const text = 'Café — naïve 🚀'
      const bytes = Buffer.from(JSON.stringify(response({ output_text: text })))
      const at = bytes.indexOf(Buffer.from('🚀')) + 2
      const server = await startServer((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write(bytes.subarray(0, at))
        setTimeout(() => res.end(bytes.subarray(at)), 5)
      })
      expect(await lastValueFrom(gatewayFor(server.url).responses$({ model: 'm' }))).toMatchObject({ output_text: text })
    })

    it('reports a 200 reply that is not JSON as a ValidationError with the raw text', async () => {
      const server = await startServer((_, res) => {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<html>maintenance</html>')
      })
      const err = await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).payload).toBe('<html>maintenance</html>')
    })

    it('asks for an event stream when streaming', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.end(frame(lifecycle('response.completed', 0)))
      })
      await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(server.requests[0]!.headers.accept).toBe('text/event-stream')
      expect(server.requests[0]!.json).toEqual({ model: 'm', stream: true })
    })
  })
})
