import { createServer, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { nodeListener, type GatewayHandler } from '../../src/server/index.js'
import { listen, signal } from './helpers.js'

/** A fetch-style handler made of `fn`, answering under /api/rxgate. */
function handlerOf(fn: (request: Request) => Promise<Response>): GatewayHandler {
  return Object.assign(fn, { basePath: '/api/rxgate' })
}

/** Sends `text` as it is and returns the raw reply once the server closes the connection. */
function raw(url: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.end(text))
    let reply = ''
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString('utf8')))
    socket.on('end', () => resolve(reply))
    socket.on('error', reject)
  })
}

describe('nodeListener: the Request it builds', () => {
  it('keeps a path written like another host a path, on the host the Host header names', async () => {
    const seen: string[] = []
    const url = await listen(createServer(nodeListener(handlerOf(async (request) => (seen.push(request.url), new Response('ok'))))))
    await raw(url, 'GET //127.0.0.1/api/rxgate/x HTTP/1.1\r\nHost: evil.test:8080\r\nConnection: close\r\n\r\n')
    await raw(url, 'GET /api/rxgate/x?a=1 HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n')
    expect(seen).toEqual(['http://evil.test:8080//127.0.0.1/api/rxgate/x', 'http://[::1]:8080/api/rxgate/x?a=1'])
  })

  it('answers a Host header that would name another host (user@host, a path, a query) with a 400', async () => {
    let called = 0
    const url = await listen(createServer(nodeListener(handlerOf(async () => (called++, new Response('ok'))))))
    for (const host of ['evil.test@127.0.0.1', 'evil.test/x', 'evil.test?x', 'evil.test#x', 'evil.test\\x']) {
      expect(await raw(url, `GET /api/rxgate/x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`), host).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"bad_request"/)
    }
    expect(called).toBe(0)
  })

  it('leaves a body it is not asked for unread: the request is set flowing only by the first read', async () => {
    const states: { flowing: boolean | null; listeners: number }[] = []
    let req: IncomingMessage | undefined
    const listener = nodeListener(
      handlerOf(async (request) => {
        states.push({ flowing: req!.readableFlowing, listeners: req!.listenerCount('data') })
        if (request.headers.has('x-refuse')) return new Response('no', { status: 401 })
        const text = await request.text()
        states.push({ flowing: req!.readableFlowing, listeners: req!.listenerCount('data') })
        return new Response(text)
      }),
    )
    const url = await listen(createServer((incoming, res) => listener((req = incoming), res)))
    const refused = await raw(url, 'POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nx-refuse: 1\r\n\r\n0123')
    expect(refused).toMatch(/^HTTP\/1\.1 401 [\s\S]*connection: close/i)
    expect(states).toEqual([{ flowing: null, listeners: 0 }])
    const read = await raw(url, 'POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')
    expect(read).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]*hello/)
    expect(states.slice(1)).toEqual([{ flowing: null, listeners: 0 }, { flowing: expect.any(Boolean), listeners: 1 }])
  })

  it('gives no body, at once, for a request whose body a middleware read through and kept nothing of', async () => {
    const seen: { body: string; length: string | null }[] = []
    const listener = nodeListener(handlerOf(async (request) => (seen.push({ body: await request.text(), length: request.headers.get('content-length') }), new Response('ok'))))
    const url = await listen(
      createServer((req, res) => {
        req.resume() // a logging middleware that reads the stream and sets no req.body
        req.once('end', () => listener(req, res))
      }),
    )
    expect(await raw(url, 'POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')).toMatch(/^HTTP\/1\.1 200/)
    expect(seen).toEqual([{ body: '', length: null }])
  })

  it('takes the host of an absolute-form target (GET http://host/path) from the target itself', async () => {
    const seen: string[] = []
    const url = await listen(createServer(nodeListener(handlerOf(async (request) => (seen.push(request.url), new Response('ok'))))))
    await raw(url, 'GET http://app.localhost:8080/api/rxgate/x?a=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    expect(seen).toEqual(['http://app.localhost:8080/api/rxgate/x?a=1'])
  })

  it('still reads nothing of a body the handler has not asked for, a turn of the event loop later', async () => {
    let req: IncomingMessage | undefined
    const states: { flowing: boolean | null; listeners: number }[] = []
    const listener = nodeListener(
      handlerOf(async () => {
        await new Promise((resolve) => setImmediate(resolve))
        states.push({ flowing: req!.readableFlowing, listeners: req!.listenerCount('data') })
        return new Response('no', { status: 401 })
      }),
    )
    const url = await listen(createServer((incoming, res) => listener((req = incoming), res)))
    await raw(url, 'POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello')
    expect(states).toEqual([{ flowing: null, listeners: 0 }])
  })

  it('holds the browser’s body back while the handler has not asked for more: the request is paused after each part it takes', async () => {
    let req: IncomingMessage | undefined
    const paused: boolean[] = []
    const listener = nodeListener(
      handlerOf(async (request) => {
        const reader = request.body!.getReader()
        let text = ''
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          paused.push(req!.isPaused())
          text += new TextDecoder().decode(r.value)
        }
        return new Response(text)
      }),
    )
    const url = await listen(createServer((incoming, res) => listener((req = incoming), res)))
    expect(await raw(url, 'POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')).toMatch(/\r\n\r\n[\s\S]*hello/)
    expect(paused).toEqual([true])
  })

  it('reads and drops the rest of a body the handler gave up on (cancelled), so the request still ends', async () => {
    let req: IncomingMessage | undefined
    const listener = nodeListener(
      handlerOf(async (request) => {
        const reader = request.body!.getReader()
        await reader.read()
        await reader.cancel()
        if (!req!.complete) await new Promise((resolve) => req!.once('end', resolve))
        return new Response('given up')
      }),
    )
    const url = await listen(createServer((incoming, res) => listener((req = incoming), res)))
    const reply = await raw(url, 'POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')
    expect(reply).toMatch(/^HTTP\/1\.1 200 [\s\S]*given up/)
  }, 5_000)

  it('fails the handler’s read of the body when the browser goes away in the middle of it', async () => {
    const reading = signal()
    const outcome = signal()
    let result = ''
    const listener = nodeListener(
      handlerOf(async (request) => {
        const text = request.text()
        reading.resolve()
        result = await text.then(
          () => 'read',
          (error: unknown) => `failed: ${String(error)}`,
        )
        outcome.resolve()
        return new Response('late')
      }),
    )
    const url = await listen(createServer((req, res) => listener(req, res)))
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write('POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n0123'))
    socket.on('error', () => {})
    // Gone once the handler is reading the body, 4 of its 10 bytes sent.
    await reading.promise
    socket.destroy()
    await outcome.promise
    expect(result).toMatch(/^failed: /)
  }, 5_000)
})
