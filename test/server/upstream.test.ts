import { describe, expect, it } from 'vitest'
import { createGatewayHandler, type GatewayHandlerOptions } from '../../src/server/index.js'
import { call, callPost, errorOf, fakeFetch, KEY, openUnlessAuthorized, RESPONSES, T2V, TASK_ID } from './helpers.js'

const BASE_URL = 'https://gateway.example'
const encode = (text: string) => new TextEncoder().encode(text)

function setup(reply?: Parameters<typeof fakeFetch>[0], options: Partial<GatewayHandlerOptions> = {}) {
  const gateway = fakeFetch(reply)
  const handler = createGatewayHandler(openUnlessAuthorized({ baseUrl: BASE_URL, apiKey: KEY, fetch: gateway.fetch, onError: () => {}, ...options }))
  return { handler, calls: gateway.calls }
}

/** A reply body that arrives in these chunks. */
function chunks(...parts: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part)
      controller.close()
    },
  })
}

/** `fetch`'s own failure: a TypeError with the socket error `depth` causes down. */
function fetchFailure(code: string, depth: number): Error {
  let error: Error & { code?: string } = Object.assign(new Error(`connect ${code}`), { code })
  for (let i = 0; i < depth; i++) error = new TypeError('fetch failed', { cause: error })
  return error
}

describe('createGatewayHandler: the call to the gateway', () => {
  it('sends exactly the key, the accept type and, for a body, its type', async () => {
    const { handler, calls } = setup()
    await handler(call(`${T2V}/${TASK_ID}`))
    await handler(call(`${RESPONSES}/resp_1?stream=true`, { headers: { accept: 'text/event-stream' } }))
    await handler(callPost(RESPONSES, { model: 'm' }, { accept: 'application/json, text/event-stream' }))
    expect(calls.map((c) => c.headers)).toEqual([
      { authorization: `Bearer ${KEY}`, accept: 'application/json' },
      { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' },
      { authorization: `Bearer ${KEY}`, accept: 'text/event-stream', 'content-type': 'application/json' },
    ])
  })

  it('passes an Idempotency-Key of 1 to 255 visible characters, and explains a refused one', async () => {
    const { handler, calls } = setup()
    const longest = '~'.repeat(255)
    expect((await handler(callPost(T2V, { prompt: 'A kite' }, { 'idempotency-key': longest }))).status).toBe(200)
    expect(calls[0]!.headers['idempotency-key']).toBe(longest)
    for (const key of ['~'.repeat(256), 'two words', 'clé']) {
      const res = await handler(callPost(T2V, { prompt: 'A kite' }, { 'idempotency-key': key }))
      expect((await errorOf(res)).message, key).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters.')
      expect(res.status).toBe(400)
    }
    expect(calls).toHaveLength(1)
  })

  it('tells a gateway that was never reached (503) from a connection that failed after sending (502)', async () => {
    const cases: [unknown, number, string][] = [
      [fetchFailure('ECONNREFUSED', 1), 503, 'The gateway could not be reached; nothing was sent.'],
      [fetchFailure('ENOTFOUND', 3), 503, 'The gateway could not be reached; nothing was sent.'],
      [fetchFailure('ECONNRESET', 1), 502, 'The connection to the gateway failed; the call may have reached it.'],
      // Only the first few causes are looked at.
      [fetchFailure('ECONNREFUSED', 4), 502, 'The connection to the gateway failed; the call may have reached it.'],
      [new TypeError('fetch failed'), 502, 'The connection to the gateway failed; the call may have reached it.'],
      [new TypeError('fetch failed', { cause: null }), 502, 'The connection to the gateway failed; the call may have reached it.'],
    ]
    for (const [failure, status, message] of cases) {
      const { handler } = setup(() => Promise.reject(failure))
      const res = await handler(callPost(RESPONSES, { model: 'm' }))
      expect([res.status, await errorOf(res)], String(failure)).toEqual([status, { message, type: 'server_error', param: null, code: 'gateway_unreachable' }])
    }
  })

  it('does not follow a 3xx, with or without a body', async () => {
    for (const status of [300, 302, 304, 399]) {
      const { handler } = setup(() => new Response(status === 304 ? null : 'moved', { status, headers: { location: 'https://elsewhere.example/' } }))
      const res = await handler(callPost(RESPONSES, { model: 'm' }))
      expect(res.status).toBe(502)
      expect(res.headers.get('location')).toBeNull()
      expect(await errorOf(res)).toEqual({ message: `The gateway answered ${status} (a redirect), which this server does not follow.`, type: 'server_error', param: null, code: 'gateway_redirect' })
    }
    for (const status of [299, 400]) {
      const { handler } = setup(() => Response.json({ status }, { status }))
      expect((await handler(callPost(RESPONSES, { model: 'm' }))).status).toBe(status)
    }
  })

  it('passes an event stream on unbuffered, and reads anything else whole with its length', async () => {
    const { handler } = setup((c) =>
      c.url.endsWith('stream=true')
        ? new Response('data: 1\n\n', { headers: { 'content-type': 'Text/Event-Stream; charset=utf-8' } })
        : new Response('data: 1\n\n', { headers: { 'content-type': 'application/x.text/event-stream' } }),
    )
    const stream = await handler(call(`${RESPONSES}/resp_1?stream=true`))
    expect(Object.fromEntries(stream.headers)).toEqual({ 'content-type': 'Text/Event-Stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' })
    expect(await stream.text()).toBe('data: 1\n\n')
    const whole = await handler(call(`${RESPONSES}/resp_1`))
    expect(Object.fromEntries(whole.headers)).toEqual({ 'content-type': 'application/x.text/event-stream', 'cache-control': 'no-store', 'content-length': '9' })
  })

  it('passes a reply without a body on as an empty one', async () => {
    const { handler } = setup(() => new Response(null, { status: 200 }))
    const res = await handler(call(`${RESPONSES}/resp_1`))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe('0')
    expect(await res.text()).toBe('')
  })

  it('passes 204 and 205 on without a body', async () => {
    for (const status of [204, 205]) {
      const { handler } = setup(() => new Response(null, { status, headers: { 'x-request-id': 'r1' } }))
      const res = await handler(call(`${RESPONSES}/resp_1`))
      expect(res.status).toBe(status)
      expect(res.body).toBeNull()
    }
  })

  it('passes a reply of exactly maxReplyBytes, and refuses a longer one', async () => {
    const { handler } = setup((c) => new Response(c.url.endsWith('resp_1') ? 'x'.repeat(1_000) : 'x'.repeat(1_001)), { maxReplyBytes: 1_000 })
    expect(await (await handler(call(`${RESPONSES}/resp_1`))).text()).toHaveLength(1_000)
    const res = await handler(call(`${RESPONSES}/resp_2`))
    expect([res.status, await errorOf(res)]).toEqual([502, { message: "The gateway's reply is larger than this server passes on (1000 bytes).", type: 'server_error', param: null, code: 'gateway_reply_too_large' }])
  })

  it('cuts an error body at 64 KiB rather than refusing it', async () => {
    const part = encode('e'.repeat(30_000))
    const { handler } = setup(() => new Response(chunks(part, part, part), { status: 500, headers: { 'content-type': 'text/plain' } }))
    const res = await handler(callPost(RESPONSES, { model: 'm' }))
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('e'.repeat(64 * 1024))
  })

  it('keeps a character split between two chunks of a reply whole', async () => {
    const bytes = encode('{"text":"café — ok"}')
    const at = bytes.indexOf(0xc3) + 1
    const { handler } = setup(() => new Response(chunks(bytes.subarray(0, at), bytes.subarray(at)), { headers: { 'content-type': 'application/json' } }))
    expect(await (await handler(call(`${RESPONSES}/resp_1`))).json()).toEqual({ text: 'café — ok' })
  })

  it('answers 502 when the gateway’s reply breaks off', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode('{"text":'))
        controller.error(new TypeError('terminated'))
      },
    })
    const { handler } = setup(() => new Response(broken, { headers: { 'content-type': 'application/json' } }))
    const res = await handler(call(`${RESPONSES}/resp_1`))
    expect([res.status, await errorOf(res)]).toEqual([502, { message: 'The connection to the gateway closed in the middle of its reply.', type: 'server_error', param: null, code: 'gateway_reply_broken' }])
  })

  it('passes an event stream on as a stream for any 2xx up to 299, and reads one under an error status whole', async () => {
    const stream = (status: number) => () => new Response('data: 1\n\n', { status, headers: { 'content-type': 'text/event-stream' } })
    const last = await setup(stream(299)).handler(call(`${RESPONSES}/resp_1?stream=true`))
    expect([last.status, last.headers.get('x-accel-buffering'), last.headers.get('content-length')]).toEqual([299, 'no', null])
    const failed = await setup(stream(500)).handler(call(`${RESPONSES}/resp_1?stream=true`))
    expect([failed.status, failed.headers.get('x-accel-buffering'), failed.headers.get('content-length'), await failed.text()]).toEqual([500, null, '9', 'data: 1\n\n'])
  })

  it('holds a 299 reply to maxReplyBytes, as any 2xx', async () => {
    const { handler } = setup(() => new Response('x'.repeat(1_001), { status: 299 }), { maxReplyBytes: 1_000 })
    const res = await handler(call(`${RESPONSES}/resp_1`))
    expect([res.status, (await errorOf(res)).code]).toEqual([502, 'gateway_reply_too_large'])
  })

  it('passes an event stream a fetch answered without a body on as an empty one', async () => {
    const { handler } = setup(() => new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } }))
    const res = await handler(call(`${RESPONSES}/resp_1?stream=true`))
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/event-stream', ''])
  })
})
