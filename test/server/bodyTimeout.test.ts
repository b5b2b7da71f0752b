import { createServer } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGatewayHandler, nodeListener } from '../../src/server/index.js'
import { call, fakeFetch, KEY, listen, RESPONSES, startUpstream } from './helpers.js'

describe('createGatewayHandler: bodyTimeoutMs', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers a body still coming after 10 s (the default) with a JSON 408, sends nothing and leaves no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const gateway = fakeFetch()
    const handler = createGatewayHandler({ baseUrl: 'https://gateway.example', apiKey: KEY, fetch: gateway.fetch, authorize: () => true })
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"model":"m",')),
      cancel: () => void (cancelled = true),
    })
    const replied = handler(call(RESPONSES, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit))
    let reply: Response | undefined
    void replied.then((res) => (reply = res))
    await vi.advanceTimersByTimeAsync(9_999)
    expect(reply).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(reply?.status).toBe(408)
    expect(reply?.headers.get('content-type')).toBe('application/json')
    expect(await reply?.json()).toEqual({ error: { message: 'The body did not arrive whole within 10000 ms.', type: 'invalid_request_error', param: null, code: 'body_timeout' } })
    expect([cancelled, gateway.calls, vi.getTimerCount()]).toEqual([true, [], 0])
  })
})

describe('nodeListener: a body sent a byte at a time', () => {
  /** Sends `head`, then one byte of `body` every `everyMs`; resolves with all the server wrote, once it closes the connection. */
  function trickle(url: string, head: string, body: string, everyMs: number): Promise<{ reply: string; sent: number }> {
    const { port } = new URL(url)
    return new Promise((resolve, reject) => {
      let sent = 0
      let timer: NodeJS.Timeout | undefined
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`${head}\r\n\r\n`)
        timer = setInterval(() => (sent < body.length ? socket.write(body[sent++]!) : clearInterval(timer)), everyMs)
      })
      let reply = ''
      socket.on('data', (chunk: Buffer) => (reply += chunk.toString('utf8')))
      socket.on('close', () => {
        clearInterval(timer)
        resolve({ reply, sent })
      })
      socket.on('error', reject)
    })
  }

  it('answers 408 within bodyTimeoutMs, forwards nothing and closes the connection', async () => {
    const upstream = await startUpstream()
    const handler = createGatewayHandler({ baseUrl: upstream.url, apiKey: KEY, authorize: () => true, bodyTimeoutMs: 200, onError: () => {} })
    const url = await listen(createServer(nodeListener(handler)))
    const body = JSON.stringify({ model: 'm', input: 'a body that takes far longer than 200 ms to send' })
    const head = [`POST /api/rxgate${RESPONSES} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${body.length}`].join('\r\n')
    const started = Date.now()
    const { reply, sent } = await trickle(url, head, body, 20)
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    expect(reply).toMatch(/\r\nconnection: close\r\n/i)
    // The body may come chunked: the JSON is what lies between its outer braces.
    expect(JSON.parse(reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1)).error.code).toBe('body_timeout')
    // Well before the body could have been sent whole, and without waiting out the whole of it.
    expect(sent).toBeLessThan(body.length)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(upstream.requests).toEqual([])
  })

  it('still takes a body that arrives whole in time, a byte at a time', async () => {
    const upstream = await startUpstream()
    const handler = createGatewayHandler({ baseUrl: upstream.url, apiKey: KEY, authorize: () => true, bodyTimeoutMs: 2_000 })
    const url = await listen(createServer(nodeListener(handler)))
    const body = '{"model":"m"}'
    const head = [`POST /api/rxgate${RESPONSES} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${body.length}`, 'Connection: close'].join('\r\n')
    const { reply } = await trickle(url, head, body, 5)
    expect(reply).toMatch(/^HTTP\/1\.1 200 /)
    expect(upstream.requests.map((r) => r.body)).toEqual([body])
  })
})
