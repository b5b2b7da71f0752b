import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import { connectionError, NOT_SENT, open, pathOnly, readText } from '../../src/transport/exchange.js'
import type { RequestSpec } from '../../src/transport/types.js'
import { clientWith } from '../helpers/client.js'
import { fakeGateway, fetchNetworkError, networkError, repeated, type Answer } from '../helpers/fakeTransport.js'
import { KEY } from '../helpers/fixtures.js'
import { expectNoKeyFragment } from '../helpers/secrets.js'

const GET: RequestSpec = { method: 'GET', path: '/p/1?stream=true' }
const POST: RequestSpec = { method: 'POST', path: '/p', body: '{"a":1}', headers: { 'idempotency-key': 'k-1' } }

function setup(answer: Answer, headers: Record<string, string> = {}) {
  const gw = fakeGateway(answer)
  return { gw, conn: clientWith({ transport: gw.transport, headers }) }
}

const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a rejection'), (e: unknown) => e)

describe('open: the request', () => {
  it('sends to baseUrl + path with the client’s headers, the call’s headers, accept, and content-type only with a body', async () => {
    const { gw, conn } = setup(() => ({ status: 200 }), { 'X-Trace': 't-1' })
    await open(conn, POST, 'application/json', new AbortSwitch())
    await open(conn, GET, 'text/event-stream', new AbortSwitch())
    expect(gw.request(1)).toMatchObject({ method: 'POST', url: 'https://gateway.test/p', body: '{"a":1}' })
    expect(gw.request(1).headers).toEqual({ authorization: `Bearer ${KEY}`, 'x-trace': 't-1', 'idempotency-key': 'k-1', accept: 'application/json', 'content-type': 'application/json' })
    expect(gw.request(2)).toMatchObject({ method: 'GET', url: 'https://gateway.test/p/1?stream=true', body: undefined })
    expect(gw.request(2).headers).toEqual({ authorization: `Bearer ${KEY}`, 'x-trace': 't-1', accept: 'text/event-stream' })
  })

  it('works without a gate (no budget): the reply opens and its exchange ends', async () => {
    const gw = fakeGateway(() => ({ status: 200, body: 'ok' }))
    const conn = clientWith({ transport: gw.transport, adaptToRateLimits: false })
    expect(conn.gate).toBeUndefined()
    const res = await open(conn, GET, 'application/json', new AbortSwitch())
    expect(await res.text()).toBe('ok')
    expect(() => res.end()).not.toThrow()
  })

  it('marks a request for an event stream as a stream, and a JSON request not', async () => {
    const { gw, conn } = setup(() => ({ status: 200 }))
    await open(conn, POST, 'application/json', new AbortSwitch())
    await open(conn, GET, 'text/event-stream', new AbortSwitch())
    expect([gw.request(1).stream, gw.request(2).stream]).toEqual([false, true])
  })

  it('resolves with any 2xx reply, its body unread', async () => {
    for (const status of [200, 201, 202, 204, 299]) {
      const { gw, conn } = setup(() => ({ status, body: 'x' }))
      expect((await open(conn, GET, 'application/json', new AbortSwitch())).status).toBe(status)
      expect(gw.request(1).bytesRead).toBe(0)
    }
  })
})

describe('open: failures', () => {
  it('a reply below 200 (status 0 is what a browser gives for an opaque reply) is an HttpError, as any reply outside 2xx', async () => {
    for (const status of [0, 199, 300]) {
      const { conn } = setup(() => ({ status, body: 'x' }))
      expect(await failure(open(conn, GET, 'application/json', new AbortSwitch()))).toMatchObject({ name: 'HttpError', status })
    }
  })

  it.each([...NOT_SENT])('a network failure %s before sending is a ConnectionError with sent: false (undici and fetch shapes)', async (code) => {
    for (const thrown of [networkError(code), fetchNetworkError(code)]) {
      const { conn } = setup(() => thrown)
      const err = await failure(open(conn, POST, 'application/json', new AbortSwitch()))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(err).toMatchObject({ method: 'POST', path: '/p', sent: false, cause: thrown })
      expect((err as Error).message).toBe(`POST /p: could not reach the gateway (${code}); check baseUrl and the network`)
    }
  })

  it('lists exactly the codes of failures before a byte left', () => {
    expect([...NOT_SENT].sort()).toEqual(['EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'ERR_INVALID_URL', 'UND_ERR_CONNECT_TIMEOUT'])
  })

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_ABORTED'])('a network failure %s is a ConnectionError with sent: true (the gateway may have the request)', async (code) => {
    const { conn } = setup(() => networkError(code))
    const err = await failure(open(conn, POST, 'application/json', new AbortSwitch()))
    expect(err).toMatchObject({ name: 'ConnectionError', sent: true })
    expect((err as Error).message).toBe(`POST /p: the connection failed after the request was sent (${code}); the gateway may have received it`)
  })

  it('a failure without any code counts as sent', async () => {
    const { conn } = setup(() => new Error('weird'))
    expect(await failure(open(conn, POST, 'application/json', new AbortSwitch()))).toMatchObject({
      sent: true,
      message: 'POST /p: the connection failed after the request was sent; the gateway may have received it',
    })
  })

  it('finds the code up to three causes deep, and stops on a chain that loops', async () => {
    const wrapped = (depth: number): Error => {
      let e: Error = networkError('ECONNREFUSED')
      for (let i = 0; i < depth; i++) e = new TypeError('fetch failed', { cause: e })
      return e
    }
    const sentFor = async (thrown: Error) => ((await failure(open(setup(() => thrown).conn, POST, 'application/json', new AbortSwitch()))) as ConnectionError).sent
    expect(await sentFor(wrapped(3))).toBe(false)
    expect(await sentFor(wrapped(4))).toBe(true)
    const looped: Error & { cause?: unknown } = new TypeError('fetch failed')
    looped.cause = new Error('inner', { cause: looped })
    expect(await sentFor(looped)).toBe(true)
  })

  it('a non-2xx reply is an HttpError with the body read, the Retry-After, the method and the path without its query', async () => {
    const { conn } = setup(() => ({ status: 429, headers: { 'retry-after': '3' }, body: '{"error":{"message":"slow down","code":"rate_limited"}}' }))
    const err = await failure(open(conn, GET, 'application/json', new AbortSwitch()))
    expect(err).toBeInstanceOf(HttpError)
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', gatewayMessage: 'slow down', retryAfterMs: 3_000, method: 'GET', path: '/p/1' })
  })

  it.each([
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after-ms': 'soon', 'retry-after': '9' }, 9_000],
    [{ 'retry-after-ms': '-5', 'retry-after': '1.5' }, 1_500],
    [{ 'retry-after-ms': '0', 'retry-after': '9' }, 0],
    [{ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, 0],
    [{ 'retry-after': 'later, maybe' }, undefined],
    [{}, undefined],
  ])('reads %j as retryAfterMs %s', async (headers, ms) => {
    const { conn } = setup(() => ({ status: 503, headers }))
    expect(await failure(open(conn, GET, 'application/json', new AbortSwitch()))).toMatchObject({ retryAfterMs: ms })
  })

  it('reads at most 64 KB of an endless error body', async () => {
    const { gw, conn } = setup(() => ({
      status: 500,
      body: (function* () {
        yield '{"detail":"'
        yield* repeated('e'.repeat(1_000))
      })(),
    }))
    const err = (await failure(open(conn, GET, 'application/json', new AbortSwitch()))) as HttpError
    expect(err.status).toBe(500)
    expect(gw.request(1).bytesRead).toBeLessThanOrEqual(64 * 1024 + 1_000)
    expect(gw.request(1).bytesRead).toBeGreaterThanOrEqual(64 * 1024)
    expect(err.gatewayMessage!.length).toBe(64 * 1024)
  })

  it('masks the key in an error body before the 64 KB cut, so the cut cannot leave a fragment', async () => {
    for (const keep of [8, 12, 20]) {
      const { conn } = setup(() => ({ status: 401, body: 'x'.repeat(64 * 1024 - keep) + KEY + 'y'.repeat(100) }))
      const err = await failure(open(conn, GET, 'application/json', new AbortSwitch()))
      expect(err).toBeInstanceOf(HttpError)
      expectNoKeyFragment(err)
    }
  })

  it('an error body that breaks off still gives the HttpError of its status', async () => {
    const { gw, conn } = setup(() => ({ status: 502, body: 'fed' }))
    const pending = failure(open(conn, GET, 'application/json', new AbortSwitch()))
    await new Promise((r) => setImmediate(r))
    gw.request(1).fed!.push('upstream ')
    gw.request(1).fed!.fail(networkError('ECONNRESET'))
    const err = await pending
    expect(err).toMatchObject({ name: 'HttpError', status: 502 })
    expect((err as HttpError).gatewayMessage).toBeUndefined()
  })
})

describe('readText', () => {
  const reply = (answer: Answer) => {
    const { gw, conn } = setup(answer)
    return { gw, res: open(conn, GET, 'application/json', new AbortSwitch()) }
  }

  it('reads a body within the limit, multibyte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('{"t":"Café — 🚀"}')
    const { res } = reply(() => ({ status: 200, body: [bytes.subarray(0, 9), bytes.subarray(9, 15), bytes.subarray(15)] }))
    expect(await readText(await res, GET, 100)).toBe('{"t":"Café — 🚀"}')
  })

  it('reads a body split inside every multibyte character', async () => {
    const bytes = new TextEncoder().encode('{"t":"Café — 🚀"}')
    const { res } = reply(() => ({ status: 200, body: [...bytes].map((b) => Uint8Array.of(b)) }))
    expect(await readText(await res, GET, 100)).toBe('{"t":"Café — 🚀"}')
  })

  it('counts a body that says its length within the limit as it arrives, never reading it whole (a decoded body can be longer)', async () => {
    const decoded = (length: number, chunks: readonly string[]) => ({
      status: 200,
      header: (name: string) => (name === 'content-length' ? String(length) : undefined),
      text: async (): Promise<string> => expect.fail('read whole'),
      body: (async function* () {
        for (const chunk of chunks) yield new TextEncoder().encode(chunk)
      })(),
    })
    expect(await readText(decoded(10, ['a'.repeat(600), 'b'.repeat(400)]), GET, 1_000)).toHaveLength(1_000)
    expect(await failure(readText(decoded(10, ['a'.repeat(600), 'b'.repeat(600)]), GET, 1_000))).toBeInstanceOf(PayloadTooLargeError)
    expect(await readText(decoded(10, ['a'.repeat(600), 'b'.repeat(600)]), GET, 1_000, 'cut')).toBe('a'.repeat(600) + 'b'.repeat(400))
  })

  it('with "cut", cuts a body whose content-length is over the limit instead of refusing it', async () => {
    const { res } = reply(() => ({ status: 200, headers: { 'content-length': '1200' }, body: ['a'.repeat(600), 'b'.repeat(600)] }))
    expect(await readText(await res, GET, 1_000, 'cut')).toBe('a'.repeat(600) + 'b'.repeat(400))
  })

  it('refuses a body whose content-length is over the limit without reading a byte of it', async () => {
    const { gw, res } = reply(() => ({ status: 200, headers: { 'content-length': '1000001' }, body: 'fed' }))
    const err = await failure(readText(await res, GET, 1_000_000))
    expect(err).toBeInstanceOf(PayloadTooLargeError)
    expect(err).toMatchObject({ limit: 'maxBodyBytes', limitBytes: 1_000_000, method: 'GET', path: '/p/1' })
    expect(gw.request(1).bytesRead).toBe(0)
  })

  it('stops reading a body without a length as soon as it passes the limit', async () => {
    const { gw, res } = reply(() => ({
      status: 200,
      body: repeated('z'.repeat(1_024)),
    }))
    expect(await failure(readText(await res, GET, 10_000))).toBeInstanceOf(PayloadTooLargeError)
    expect(gw.request(1).bytesRead).toBeLessThanOrEqual(10_000 + 1_024)
  })

  it('reads a body of exactly the limit', async () => {
    const { res } = reply(() => ({ status: 200, body: ['a'.repeat(600), 'b'.repeat(400)] }))
    expect(await readText(await res, GET, 1_000)).toHaveLength(1_000)
  })

  it('with "cut", returns the first `limit` bytes instead of failing', async () => {
    const { res } = reply(() => ({ status: 200, body: ['a'.repeat(600), 'b'.repeat(600)] }))
    expect(await readText(await res, GET, 1_000, 'cut')).toBe('a'.repeat(600) + 'b'.repeat(400))
  })

  describe('through a transport that reads up to a limit itself (textUpTo)', () => {
    const upTo = (text: string, whole: boolean, length?: number) => {
      const limits: number[] = []
      const res = {
        status: 200,
        header: (name: string) => (name === 'content-length' && length !== undefined ? String(length) : undefined),
        text: async (): Promise<string> => expect.fail('read whole'),
        textUpTo: async (limit: number) => (limits.push(limit), { text, whole }),
        body: {
          [Symbol.asyncIterator]: (): AsyncIterator<Uint8Array> => {
            throw new Error('read in pieces')
          },
        },
      }
      return { res, limits }
    }

    it('takes a whole body from it, asking for the limit', async () => {
      const { res, limits } = upTo('{"a":1}', true)
      expect(await readText(res, GET, 1_000)).toBe('{"a":1}')
      expect(limits).toEqual([1_000])
    })

    it('refuses a body that went past the limit, or with "cut" returns what it read', async () => {
      const err = await failure(readText(upTo('x'.repeat(10), false).res, GET, 10))
      expect(err).toBeInstanceOf(PayloadTooLargeError)
      expect(err).toMatchObject({ limit: 'maxBodyBytes', limitBytes: 10, method: 'GET', path: '/p/1' })
      expect(await readText(upTo('x'.repeat(10), false).res, GET, 10, 'cut')).toBe('x'.repeat(10))
    })

    it('is asked when the length is known within the limit too; a length past it is refused without asking', async () => {
      const known = upTo('y'.repeat(20), true, 20)
      expect(await readText(known.res, GET, 20)).toBe('y'.repeat(20))
      const over = upTo('', true, 21)
      expect(await failure(readText(over.res, GET, 20))).toBeInstanceOf(PayloadTooLargeError)
      expect([...known.limits, ...over.limits]).toEqual([20])
    })

    it('turns its failure into a ConnectionError with sent: true', async () => {
      const { res } = upTo('', true)
      res.textUpTo = async () => {
        throw networkError('ECONNRESET')
      }
      expect(await failure(readText(res, GET, 1_000))).toMatchObject({ sent: true, message: 'GET /p/1: the connection closed in the middle of the reply (ECONNRESET)' })
    })
  })

  it('turns a body that breaks off into a ConnectionError with sent: true', async () => {
    const { gw, res } = reply(() => ({ status: 200, body: 'fed' }))
    const opened = await res
    gw.request(1).fed!.push('{"id":')
    gw.request(1).fed!.fail(networkError('ECONNRESET'))
    const err = await failure(readText(opened, GET, 1_000))
    expect(err).toBeInstanceOf(ConnectionError)
    expect(err).toMatchObject({ sent: true, message: 'GET /p/1: the connection closed in the middle of the reply (ECONNRESET)' })
  })
})

describe('connectionError and pathOnly', () => {
  it('a failure in the body is always sent, whatever its code', () => {
    expect(connectionError(GET, networkError('ECONNREFUSED'), true)).toMatchObject({ sent: true })
    expect(connectionError(GET, new Error('gone'), true)).toMatchObject({ sent: true, message: 'GET /p/1: the connection closed in the middle of the reply' })
  })

  it('pathOnly drops the query (ids stay out of logs)', () => {
    expect(pathOnly('/a/b?stream=true&starting_after=3')).toBe('/a/b')
    expect(pathOnly('/a/b')).toBe('/a/b')
  })
})
