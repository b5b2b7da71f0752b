import type http from 'node:http'
import type { HttpClient } from '@angular/common/http'
import { EMPTY } from 'rxjs'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { httpClientTransport } from '../../src/angular/httpClientTransport.js'
import { createClient, type Client, type ClientOptions } from '../../src/client.js'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { sse$ } from '../../src/streams/sse$.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import { json$ } from '../../src/transport/json$.js'
import type { RequestSpec, TransportResponse } from '../../src/transport/types.js'
import { VirtualClock } from '../helpers/clock.js'
import { observe } from '../helpers/collect.js'
import { KEY } from '../helpers/fixtures.js'
import { expectNoKeyFragment } from '../helpers/secrets.js'
import { closedPort, sendJson, startServer, startSse, waitFor, within } from '../helpers/server.js'
import { angularHttpClient } from './angularHttpClient.js'

// The behaviours every transport must have, written once and run against
// each transport rxgate ships, over a real loopback socket. Waits on the
// socket (a close the server sees) are bounded by `within`, so a transport
// that fails to abort fails here in seconds instead of hanging.

// An Angular app's real HttpClient (fetch backend), shared by its cases.
const angular = await angularHttpClient()
afterAll(angular.destroy)

const TRANSPORTS: { name: string; options: Partial<ClientOptions> }[] = [
  { name: 'undici (the Node default)', options: {} },
  { name: 'fetch (createClient({ fetch }))', options: { fetch: (input, init) => globalThis.fetch(input, init) } },
  { name: 'Angular HttpClient (httpClientTransport, withFetch)', options: { transport: httpClientTransport(angular.http) } },
]

const CLOSE_MS = 2_000
const GET: RequestSpec = { method: 'GET', path: '/r' }
const events = { decode: (json: unknown) => json as { type: string }, isLast: (e: { type: string }) => e.type === 'done' }
const frame = (type: string, extra = '') => `event: ${type}\ndata: {"type":"${type}"${extra}}\n\n`

/** Reads the next chunk of a body as text. */
async function nextChunk(iterator: AsyncIterator<Uint8Array>): Promise<string | undefined> {
  const { done, value } = await iterator.next()
  return done ? undefined : new TextDecoder().decode(value)
}

/** A gate the test opens: the server waits on it before writing more. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void
  const wait = new Promise<void>((resolve) => (open = resolve))
  return { wait, open }
}

describe.each(TRANSPORTS)('transport conformance: $name', ({ options }) => {
  const clientFor = (url: string, more: Partial<ClientOptions> = {}): Client => createClient({ baseUrl: url, apiKey: KEY, ...options, ...more })
  const send = (client: Client, path: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal?: AbortSwitch } = {}): Promise<TransportResponse> =>
    client.transport({ method: init.method ?? 'GET', url: client.baseUrl + path, headers: init.headers ?? {}, body: init.body, signal: init.signal ?? new AbortSwitch() })

  describe('requests and replies', () => {
    it('passes the method, path and query, headers and body to the server as given', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, {}))
      const body = JSON.stringify({ prompt: 'Café — 🚀' })
      await send(clientFor(server.url), '/a/b?stream=true&starting_after=3', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'k-1', accept: 'application/json' },
        body,
      })
      const req = server.requests[0]!
      expect({ method: req.method, url: req.url, body: req.body }).toEqual({ method: 'POST', url: '/a/b?stream=true&starting_after=3', body })
      expect(req.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'k-1', accept: 'application/json' })
    })

    it('resolves with any status and passes headers back: names in any case, repeated ones joined, missing ones undefined', async () => {
      const server = await startServer((_, res) => {
        res.writeHead(418, { 'X-Thing': 'a', 'x-multi': ['one', 'two'], 'content-type': 'text/plain' })
        res.end('teapot')
      })
      const res = await send(clientFor(server.url), '/r')
      expect(res.status).toBe(418)
      expect([res.header('x-thing'), res.header('x-multi'), res.header('x-absent')]).toEqual(['a', 'one, two', undefined])
      expect(await res.text()).toBe('teapot')
    })

    it('streams the body chunk by chunk: the first chunk arrives before the server writes the second', async () => {
      const second = gate()
      const server = await startServer(async (_, res) => {
        startSse(res)
        res.write('one')
        await second.wait
        res.end('two')
      })
      const res = await send(clientFor(server.url), '/r')
      const chunks = res.body[Symbol.asyncIterator]()
      expect(await within(nextChunk(chunks), CLOSE_MS, 'the first chunk')).toBe('one')
      second.open()
      expect(await nextChunk(chunks)).toBe('two')
      expect(await nextChunk(chunks)).toBeUndefined()
    })

    it('reads a JSON reply whose multibyte characters are split across writes', async () => {
      const bytes = Buffer.from(JSON.stringify({ text: 'Café — naïve 🚀' }))
      const at = bytes.indexOf(Buffer.from('🚀')) + 2
      const server = await startServer((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write(bytes.subarray(0, at), () => res.end(bytes.subarray(at)))
      })
      const o = observe(json$(clientFor(server.url), GET))
      expect(await o.done).toEqual({ values: [{ text: 'Café — naïve 🚀' }], error: undefined, completed: true })
    })
  })

  describe('aborting', () => {
    it('before the headers: the request rejects and the server sees the connection close', async () => {
      const server = await startServer(() => {})
      const signal = new AbortSwitch()
      const pending = send(clientFor(server.url), '/r', { signal })
      const req = await server.request(1)
      signal.abort()
      await expect(pending).rejects.toBeDefined()
      await within(req.closedEarly, CLOSE_MS, 'the server seeing the close')
    })

    it('in the middle of the body: reading rejects and the server sees the connection close', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.write('first part')
      })
      const signal = new AbortSwitch()
      const res = await send(clientFor(server.url), '/r', { signal })
      const chunks = res.body[Symbol.asyncIterator]()
      expect(await nextChunk(chunks)).toBe('first part')
      signal.abort()
      await expect(chunks.next()).rejects.toBeDefined()
      await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
    })

    it('during a stalled body (headers sent, not a byte more): reading rejects and the server sees the close', async () => {
      const server = await startServer((_, res) => startSse(res))
      const signal = new AbortSwitch()
      const res = await send(clientFor(server.url), '/r', { signal })
      const next = res.body[Symbol.asyncIterator]().next()
      signal.abort()
      await expect(next).rejects.toBeDefined()
      await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
    })

    it('a JSON request unsubscribed before its reply: the server sees the close, nothing is emitted, no timer is left', async () => {
      const server = await startServer(() => {})
      const clock = new VirtualClock()
      const o = observe(json$(clientFor(server.url, { scheduler: clock }), GET))
      const req = await server.request(1)
      o.subscription.unsubscribe()
      await within(req.closedEarly, CLOSE_MS, 'the server seeing the close')
      expect(clock.pending).toBe(0)
      expect(o.values).toEqual([])
    })

    it('a stream unsubscribed in the middle: the server sees the close and nothing more is emitted', async () => {
      let stream!: http.ServerResponse
      const server = await startServer((_, res) => {
        stream = res
        startSse(res)
        res.write(frame('a'))
      })
      const clock = new VirtualClock()
      const o = observe(sse$(clientFor(server.url, { scheduler: clock }), GET, events))
      const req = await server.request(1)
      await waitFor(() => o.values.length === 1, CLOSE_MS, 'the first event')
      o.subscription.unsubscribe()
      await within(req.closedEarly, CLOSE_MS, 'the server seeing the close')
      stream.write(frame('b'))
      expect(o.values).toEqual([{ type: 'a' }])
      expect(clock.pending).toBe(0)
    })
  })

  describe('a finished stream', () => {
    it('is read to its end, not aborted: the server sees its reply finish normally', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.write(frame('a') + frame('done'), () => res.end('data: [DONE]\n\n'))
      })
      const o = observe(sse$(clientFor(server.url), GET, events))
      expect((await o.done).completed).toBe(true)
      expect(await within(server.requests[0]!.ended, CLOSE_MS, 'the reply ending')).toBe(true)
    })

    it('is aborted when the server keeps it open past the grace after the last event', async () => {
      const clock = new VirtualClock()
      const server = await startServer((_, res) => {
        startSse(res)
        res.write(frame('done'))
      })
      const o = observe(sse$(clientFor(server.url, { scheduler: clock }), GET, events))
      expect((await o.done).completed).toBe(true)
      clock.advance(2_000)
      expect(await within(server.requests[0]!.ended, CLOSE_MS, 'the reply ending')).toBe(false)
    })
  })

  describe('failures', () => {
    it('a refused connection is a ConnectionError with sent: false', async () => {
      const port = await closedPort()
      const { error } = await observe(json$(clientFor(`http://127.0.0.1:${port}`), { method: 'POST', path: '/p', body: '{}' })).done
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ method: 'POST', path: '/p', sent: false })
      expectNoKeyFragment(error)
    })

    it('a connection reset after the request was sent is a ConnectionError with sent: true', async () => {
      const server = await startServer((_, __, raw) => raw.socket.destroy())
      const { error } = await observe(json$(clientFor(server.url), { method: 'POST', path: '/p', body: '{}' })).done
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ method: 'POST', sent: true })
      expectNoKeyFragment(error)
    })

    it.each([
      ['that says its length', { 'content-length': '5000' }],
      ['of unknown length (chunked)', {}],
    ])('a connection cut in the middle of a JSON reply %s is a ConnectionError with sent: true', async (_, length) => {
      const server = await startServer((_, res, raw) => {
        res.writeHead(200, { 'content-type': 'application/json', ...length })
        res.write('{"id":"resp_1","obj', () => raw.socket.destroy())
      })
      const { error } = await observe(json$(clientFor(server.url), GET)).done
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ sent: true })
    })

    it('a silent server: TimeoutError after timeoutMs on the client’s clock, and the server sees the close', async () => {
      const clock = new VirtualClock()
      const server = await startServer(() => {})
      const o = observe(json$(clientFor(server.url, { scheduler: clock, timeoutMs: 5_000 }), GET))
      const req = await server.request(1)
      clock.advance(4_999)
      expect(o.error).toBeUndefined()
      clock.advance(1)
      expect((await o.done).error).toBeInstanceOf(TimeoutError)
      await within(req.closedEarly, CLOSE_MS, 'the server seeing the close')
      expect(clock.pending).toBe(0)
    })

    it('a non-2xx reply is an HttpError with its status, body and Retry-After; the key the gateway echoed is masked', async () => {
      const server = await startServer((_, res) => sendJson(res, 429, { error: { message: `slow down, ${KEY}`, code: 'rate_limited' } }, { 'retry-after': '2' }))
      const { error } = await observe(json$(clientFor(server.url), GET)).done
      expect(error).toBeInstanceOf(HttpError)
      expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 2_000, gatewayMessage: 'slow down, [redacted]' })
      expectNoKeyFragment(error)
    })
  })

  describe('size limits', () => {
    it('an endless error body is read no further than 64 KB: the HttpError arrives and the server sees the close', async () => {
      const server = await startServer((_, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' })
        const pump = () => {
          while (res.write('e'.repeat(16_384))) {}
          res.once('drain', pump)
        }
        pump()
      })
      const { error } = await within(observe(json$(clientFor(server.url), GET)).done, CLOSE_MS, 'the HttpError')
      expect(error).toBeInstanceOf(HttpError)
      expect((error as HttpError).gatewayMessage!.length).toBe(64 * 1024)
      await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
    })

    it('a JSON body whose content-length is over maxBodyBytes: PayloadTooLargeError, and the server sees the close', async () => {
      const server = await startServer((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) })
        res.write('[')
      })
      const { error } = await observe(json$(clientFor(server.url, { maxBodyBytes: 1_000_000 }), GET)).done
      expect(error).toBeInstanceOf(PayloadTooLargeError)
      expect(error).toMatchObject({ limit: 'maxBodyBytes', limitBytes: 1_000_000 })
      await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
    })

    it('an endless chunked JSON body: PayloadTooLargeError past maxBodyBytes, and the server sees the close', async () => {
      const server = await startServer((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        const pump = () => {
          while (res.write('['.repeat(16_384))) {}
          res.once('drain', pump)
        }
        pump()
      })
      const { error } = await within(observe(json$(clientFor(server.url, { maxBodyBytes: 1_000_000 }), GET)).done, CLOSE_MS, 'the PayloadTooLargeError')
      expect(error).toMatchObject({ name: 'PayloadTooLargeError', limit: 'maxBodyBytes' })
      await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
    })

    it('an endless stream line: PayloadTooLargeError past maxEventBytes, and the server sees the close', async () => {
      const server = await startServer((_, res) => {
        startSse(res)
        res.write('data: ')
        const pump = () => {
          while (res.write('x'.repeat(16_384))) {}
          res.once('drain', pump)
        }
        pump()
      })
      const { error } = await within(observe(sse$(clientFor(server.url, { maxEventBytes: 1_000_000 }), GET, events)).done, CLOSE_MS, 'the PayloadTooLargeError')
      expect(error).toMatchObject({ name: 'PayloadTooLargeError', limit: 'maxEventBytes', limitBytes: 1_000_000 })
      await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
    })
  })
})

// What only HttpClient does: it belongs to an Angular app, whose end stops it.
describe('transport conformance: Angular HttpClient, its app', () => {
  const send = (http: HttpClient, url: string): Promise<TransportResponse> => httpClientTransport(http)({ method: 'GET', url, headers: {}, signal: new AbortSwitch() })

  it('destroyed in the middle of the body: reading rejects, not ends as if the reply were whole, and the server sees the close', async () => {
    const app = await angularHttpClient()
    const second = gate()
    const server = await startServer(async (_, res) => {
      startSse(res)
      res.write('one')
      await second.wait
      res.write('two')
    })
    const res = await send(app.http, `${server.url}/r`)
    const chunks = res.body[Symbol.asyncIterator]()
    expect(await nextChunk(chunks)).toBe('one')
    app.destroy()
    second.open()
    // HttpClient looks at its app only between chunks: it passes on the one
    // it was waiting for, then stops reading and completes without a reply.
    expect(await nextChunk(chunks)).toBe('two')
    await expect(chunks.next()).rejects.toThrow(/without its reply/)
    await within(server.requests[0]!.closedEarly, CLOSE_MS, 'the server seeing the close')
  })

  it('an interceptor that completes without a reply: the request rejects instead of waiting forever', async () => {
    const app = await angularHttpClient(() => EMPTY)
    onTestFinished(app.destroy)
    await expect(within(send(app.http, `http://127.0.0.1:${await closedPort()}/r`), CLOSE_MS, 'the rejection')).rejects.toThrow(/without its reply/)
  })
})
