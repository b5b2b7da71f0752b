import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import { EventEmitter } from 'node:events'
import { connect, type Socket } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createGatewayHandler, expressMiddleware, nodeListener, type GatewayHandler, type NodeRequestLike } from '../../src/server/index.js'
import { serveNode } from '../../src/server/node.js'
import { fakeFetch, KEY, listen, RESPONSES, signal, stalledBrowser } from './helpers.js'

/** A fetch-style handler made of `fn`, answering under /api/rxgate. */
function handlerOf(fn: (request: Request) => Promise<Response>): GatewayHandler {
  return Object.assign(fn, { basePath: '/api/rxgate' })
}

/** A `node:http` server on 127.0.0.1 with `listener`, closed when the test ends; returns its address. */
async function serve(listener: RequestListener): Promise<{ url: string; server: ReturnType<typeof createServer> }> {
  const server = createServer(listener)
  return { url: await listen(server), server }
}

/** Sends `head` (request line and headers) as it is, and returns the raw reply once the server closes the connection. */
function raw(url: string, head: string): Promise<string> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}\r\n\r\n`))
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
}

/** A reply body that tells how it was left first: read further ('pull') or cancelled ('cancel'); and when it is cancelled. */
function watchedBody(first?: string) {
  const outcome = signal()
  const cancelled = signal()
  let how: 'pull' | 'cancel' | undefined
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (first !== undefined) controller.enqueue(new TextEncoder().encode(first))
      },
      pull() {
        how ??= 'pull'
        outcome.resolve()
        return new Promise(() => {}) // the gateway says no more
      },
      cancel() {
        how ??= 'cancel'
        outcome.resolve()
        cancelled.resolve()
      },
    },
    { highWaterMark: 0 },
  )
  return { body, outcome: outcome.promise.then(() => how), cancelled: cancelled.promise }
}

describe('nodeListener', () => {
  it('gives the handler the URL the browser asked for, with its host, and every header it sent', async () => {
    let seen: Request | undefined
    const listener = nodeListener(handlerOf(async (request) => ((seen = request), new Response('ok'))))
    const { url } = await serve((req, res) => {
      // As a middleware that drops a header leaves it.
      req.headers['x-dropped'] = undefined
      listener(req, res)
    })
    const res = await fetch(`${url}/api/rxgate/x?y=1`, { headers: { 'x-team': 'web' } })
    expect(await res.text()).toBe('ok')
    expect(seen!.url).toBe(`${url}/api/rxgate/x?y=1`)
    expect(seen!.headers.get('x-team')).toBe('web')
    expect(seen!.headers.has('x-dropped')).toBe(false)
  })

  it('takes localhost as the host of a request that names none', async () => {
    let seen: Request | undefined
    const { url } = await serve(nodeListener(handlerOf(async (request) => ((seen = request), new Response('ok')))))
    expect(await raw(url, 'GET /api/rxgate/x HTTP/1.0')).toMatch(/^HTTP\/1\.1 200/)
    expect(seen!.url).toBe('http://localhost/api/rxgate/x')
  })

  it('answers a request it cannot turn into a Request with a JSON 400', async () => {
    const { url } = await serve(nodeListener(handlerOf(async () => new Response('ok'))))
    const reply = await raw(url, 'GET /api/rxgate/x HTTP/1.0\r\nHost: bad host')
    const [head, body] = reply.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400/)
    expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i)
    expect(head).toMatch(/\r\ncache-control: no-store\r\n/i)
    expect(JSON.parse(body!)).toEqual({
      error: { message: 'The request could not be read (its URL or headers are malformed).', type: 'invalid_request_error', param: null, code: 'bad_request' },
    })
  })

  it('passes GET and HEAD on without a body, and other methods with theirs', async () => {
    const seen: string[] = []
    const { url } = await serve(nodeListener(handlerOf(async (request) => (seen.push(`${request.method} ${await request.text()}`), new Response(null, { status: 204 })))))
    for (const method of ['GET', 'HEAD', 'DELETE']) expect((await fetch(`${url}/api/rxgate/x`, { method })).status, method).toBe(204)
    expect((await fetch(`${url}/api/rxgate/x`, { method: 'POST', body: 'hello' })).status).toBe(204)
    expect(seen).toEqual(['GET ', 'HEAD ', 'DELETE ', 'POST hello'])
  })

  it('keeps the connection after a body that came whole, and closes it after a refusal sent before the body arrived', async () => {
    const { url } = await serve(nodeListener(handlerOf(async (request) => (request.headers.has('x-refuse') ? new Response('no', { status: 401 }) : (await request.text(), new Response('ok'))))))
    const head = (extra: string) => `POST /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n${extra}\r\n`
    // After a reply that keeps the connection, a second request goes on the same socket: a second reply proves it stayed open; else the close is awaited.
    const exchange = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(text))
        let reply = ''
        let asked = false
        socket.on('data', (chunk: Buffer) => {
          reply += chunk.toString('utf8')
          const replies = reply.match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0
          if (replies === 1 && !asked && /\r\n\r\n[\s\S]*(ok|no)/.test(reply) && !/connection: close/i.test(reply)) {
            asked = true
            socket.write(`${head('')}0123456789`)
          }
          if (replies === 2 && /\r\n\r\n[\s\S]*(ok|no)[\s\S]*\r\n\r\n[\s\S]*ok/.test(reply)) {
            socket.destroy()
            resolve(`${reply.slice(0, reply.lastIndexOf('HTTP/1.1'))}\nopen`)
          }
        })
        socket.on('close', () => resolve(`${reply}\nclosed`))
        socket.on('error', reject)
      })
    const whole = await exchange(`${head('')}0123456789`)
    expect(whole).toMatch(/^HTTP\/1\.1 200 [\s\S]*\nopen$/)
    expect(whole).not.toMatch(/connection: close/i)
    const early = await exchange(`${head('x-refuse: 1\r\n')}0123`)
    expect(early).toMatch(/^HTTP\/1\.1 401 [\s\S]*connection: close[\s\S]*\nclosed$/i)
    // One reply, the refusal itself, and then the close: no second request was needed to end it.
    expect(early.match(/HTTP\/1\.1 /g)).toHaveLength(1)
  })

  it('answers a reply without a body with its status and headers', async () => {
    const { url } = await serve(nodeListener(handlerOf(async () => new Response(null, { status: 204, headers: { 'x-request-id': 'req_1' } }))))
    const res = await fetch(`${url}/api/rxgate/x`)
    expect(res.status).toBe(204)
    expect(res.headers.get('x-request-id')).toBe('req_1')
  })

  it('answers a reply without a body as an empty one, whatever its status', async () => {
    const { url } = await serve(nodeListener(handlerOf(async () => new Response(null, { status: 200, headers: { 'x-request-id': 'req_2' } }))))
    const res = await fetch(`${url}/api/rxgate/x`)
    expect([res.status, res.headers.get('x-request-id'), await res.text()]).toEqual([200, 'req_2', ''])
  })

  it('treats a request object without a method as a GET', async () => {
    let seen: Request | undefined
    const listener = nodeListener(handlerOf(async (request) => ((seen = request), new Response('ok'))))
    const { url } = await serve((req, res) => {
      req.method = undefined
      listener(req, res)
    })
    expect(await (await fetch(`${url}/api/rxgate/x`)).text()).toBe('ok')
    expect(seen!.method).toBe('GET')
  })

  it('passes a large reply on whole, waiting for the browser to take each part, and leaves no listeners behind', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => void warnings.push(warning)
    process.on('warning', onWarning)
    onTestFinished(() => void process.off('warning', onWarning))
    const part = new Uint8Array(1024 * 1024).fill(0x61)
    let sent = 0
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent++ < 16) controller.enqueue(part)
          else controller.close()
        },
      },
      { highWaterMark: 0 },
    )
    const { url } = await serve(nodeListener(handlerOf(async () => new Response(body))))
    const res = await fetch(`${url}/api/rxgate/x`)
    expect((await res.arrayBuffer()).byteLength).toBe(16 * part.byteLength)
    // A warning is emitted on the next tick at the latest.
    await new Promise((resolve) => setImmediate(resolve))
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning')
  })

  it('cuts the browser’s reply, rather than ending it cleanly, when the handler’s stream breaks', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'))
      },
      pull(controller) {
        controller.error(new TypeError('terminated'))
      },
    })
    const { url } = await serve(nodeListener(handlerOf(async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }))))
    const res = await fetch(`${url}/api/rxgate/x`)
    await expect(res.text()).rejects.toThrow(/terminated/)
  })

  it('breaks the connection when the handler itself fails', async () => {
    const { url } = await serve(nodeListener(handlerOf(() => Promise.reject(new Error('bug')))))
    await expect(fetch(`${url}/api/rxgate/x`)).rejects.toThrow(/fetch failed/)
  })

  it('does not abort the handler’s request once the reply has been sent', async () => {
    let seen: Request | undefined
    const closed = signal()
    const { url, server } = await serve(nodeListener(handlerOf(async (request) => ((seen = request), new Response('done')))))
    // Runs after the adapter's own 'close' listener.
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => res.on('close', closed.resolve))
    expect(await (await fetch(`${url}/api/rxgate/x`)).text()).toBe('done')
    await closed.promise
    expect(seen!.signal.aborted).toBe(false)
  })

  it('cancels the reply, unread, when the browser left before the handler answered', async () => {
    const arrived = signal()
    const watched = watchedBody('data: 1\n\n')
    const { url } = await serve(
      nodeListener(
        handlerOf(async (request) => {
          arrived.resolve()
          await new Promise((resolve) => request.signal.addEventListener('abort', resolve))
          return new Response(watched.body)
        }),
      ),
    )
    const caller = new AbortController()
    const pending = fetch(`${url}/api/rxgate/x`, { signal: caller.signal }).catch(() => undefined)
    await arrived.promise
    caller.abort()
    await pending
    expect(await watched.outcome).toBe('cancel')
  })

  it('cancels the reply stream when the browser leaves in the middle of it', async () => {
    const watched = watchedBody('data: 1\n\n')
    const { url } = await serve(nodeListener(handlerOf(async () => new Response(watched.body, { headers: { 'content-type': 'text/event-stream' } }))))
    const caller = new AbortController()
    const res = await fetch(`${url}/api/rxgate/x`, { signal: caller.signal })
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n')
    caller.abort()
    await watched.cancelled
  })
})

describe('serveNode', () => {
  it('resolves when the browser left before a reply without a body was ready', async () => {
    const arrived = signal()
    const served: Promise<void>[] = []
    const handler = handlerOf(async (request) => {
      arrived.resolve()
      await new Promise((resolve) => request.signal.addEventListener('abort', resolve))
      return new Response(null, { status: 204 })
    })
    const { url } = await serve((req, res) => void served.push(serveNode(handler, req, res)))
    const caller = new AbortController()
    const pending = fetch(`${url}/api/rxgate/x`, { signal: caller.signal }).catch(() => undefined)
    await arrived.promise
    caller.abort()
    await pending
    await expect(served[0]).resolves.toBeUndefined()
  })
})

describe('serveNode, waiting for a slow browser', () => {
  it('reads no further while a part is unread, and stops waiting when the browser leaves', async () => {
    const served: Promise<void>[] = []
    let pulls = 0
    let browser: Socket | undefined // eslint-disable-line prefer-const -- set below, once the socket exists; the handler above reads it
    // Far more than the connection's buffers hold while the browser reads nothing.
    const huge = new Uint8Array(32 * 1024 * 1024).fill(0x61)
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (++pulls > 2) return controller.close()
          controller.enqueue(huge)
          // Once this part is written and the adapter waits for room, the browser leaves.
          setImmediate(() => browser!.destroy())
        },
      },
      { highWaterMark: 0 },
    )
    const handler = handlerOf(async () => new Response(body))
    const { url } = await serve((req, res) => void served.push(serveNode(handler, req, res)))
    const stalled = stalledBrowser(url, served)
    browser = stalled.socket
    await expect(stalled.ended).resolves.toBeUndefined()
    expect(pulls).toBe(1)
  })
})

describe('serveNode, writing to a browser that takes each part slowly', () => {
  it('leaves no listener behind for each wait: a reply of many parts, each waited for, warns of no leak', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => void warnings.push(warning)
    process.on('warning', onWarning)
    onTestFinished(() => void process.off('warning', onWarning))
    // A browser whose connection is always full: every write waits for 'drain', which comes a turn later.
    class SlowBrowser extends EventEmitter {
      statusCode = 200
      writableFinished = false
      headersSent = false
      written = 0
      setHeader(): void {}
      flushHeaders(): void {
        this.headersSent = true
      }
      write(chunk: Uint8Array): boolean {
        this.written += chunk.byteLength
        setImmediate(() => this.emit('drain'))
        return false
      }
      end(): void {
        this.writableFinished = true
        this.emit('close')
      }
      destroy(): void {
        this.emit('close')
      }
    }
    const res = new SlowBrowser()
    // More waits than the signal's listener limit (fetch's Request raises it to 1,500), each of which would leave one.
    const PARTS = 2_000
    let sent = 0
    const body = new ReadableStream<Uint8Array>({ pull: (controller) => (sent++ < PARTS ? controller.enqueue(new Uint8Array(10)) : controller.close()) }, { highWaterMark: 0 })
    const req = { headers: { host: '127.0.0.1' }, method: 'GET', url: '/api/rxgate/x', complete: true } as unknown as IncomingMessage
    await serveNode(handlerOf(async () => new Response(body)), req, res as unknown as ServerResponse)
    expect([res.written, res.writableFinished]).toEqual([PARTS * 10, true])
    // A warning is emitted on the next tick at the latest.
    await new Promise((resolve) => setImmediate(resolve))
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning')
  })
})

describe('expressMiddleware', () => {
  /** A server that runs `before` (another middleware), then the adapter; `next` answers with what it was given. */
  async function expressLike(handler: GatewayHandler, before: (req: NodeRequestLike & { body?: unknown }) => Promise<void> = async () => {}) {
    const middleware = expressMiddleware(handler)
    const { url } = await serve(async (req, res) => {
      await before(req)
      middleware(req, res, (error) => {
        res.writeHead(error ? 500 : 200, { 'content-type': 'text/plain' })
        res.end(error ? `next(${String(error)})` : 'next()')
      })
    })
    return url
  }

  /** Reads the request stream through, as a body parser does. */
  async function readAll(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }

  it('hands a failure of the handler to next()', async () => {
    const url = await expressLike(handlerOf(() => Promise.reject(new Error('bug'))))
    const res = await fetch(`${url}/api/rxgate/x`)
    expect([res.status, await res.text()]).toEqual([500, 'next(Error: bug)'])
  })

  function gatewayHandler() {
    const gateway = fakeFetch()
    return { handler: createGatewayHandler({ baseUrl: 'https://gateway.example', apiKey: KEY, fetch: gateway.fetch, allowUnauthenticated: true }), calls: gateway.calls }
  }
  const send = (url: string, body: string) => fetch(`${url}/api/rxgate${RESPONSES}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

  it('reads the body itself when a parser left it unread (and set an empty req.body)', async () => {
    const { handler, calls } = gatewayHandler()
    // As express.json() leaves a request it did not parse.
    const url = await expressLike(handler, async (req) => void (req.body = {}))
    expect((await send(url, '{"model":"m","input":"hi"}')).status).toBe(200)
    expect(calls.map((c) => c.body)).toEqual(['{"model":"m","input":"hi"}'])
  })

  it('forwards a body a parser read as text or as bytes as it is', async () => {
    const { handler, calls } = gatewayHandler()
    let asText = true
    const url = await expressLike(handler, async (req) => {
      const bytes = await readAll(req)
      req.body = asText ? bytes.toString('utf8') : bytes
    })
    expect((await send(url, '{"model":"m","input":"text"}')).status).toBe(200)
    asText = false
    expect((await send(url, '{"model":"m","input":"bytes"}')).status).toBe(200)
    expect(calls.map((c) => c.body)).toEqual(['{"model":"m","input":"text"}', '{"model":"m","input":"bytes"}'])
  })
})
