import type { IncomingMessage, ServerResponse } from 'node:http'
import type { GatewayHandler } from './handler.js'

/** A `node:http` request as the adapters read it: Express's adds `originalUrl` (the path before mounting) and maybe a parsed `body`. */
export interface NodeRequestLike extends IncomingMessage {
  readonly originalUrl?: string
  readonly body?: unknown
}

/**
 * Adapts a fetch-style handler to `node:http`: `createServer(nodeListener(handler))`.
 * Requests outside the handler's `basePath` get its JSON 404. The reply is
 * written as it arrives (events are not held back), with backpressure; when
 * the browser goes away the handler's request is aborted, which aborts the
 * gateway call. A reply sent before the request's body has all arrived (a
 * refusal: too large, too slow, unauthorized) closes the connection, rather
 * than reading on a body no one wants.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createGatewayHandler, nodeListener } from 'rxgate/server'
 *
 * const handler = createGatewayHandler({
 *   baseUrl: process.env.GATEWAY_BASE_URL!,
 *   apiKey: process.env.GATEWAY_API_KEY!,
 *   authorize: (request) => request.headers.get('cookie')?.includes('session=') ?? false,
 * })
 * createServer(nodeListener(handler)).listen(3000)
 * ```
 */
export function nodeListener(handler: GatewayHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serveNode(handler, req, res).catch(() => res.destroy())
  }
}

/** Answers one `node:http` request with the handler; resolves once the reply has ended (or the browser left). */
export async function serveNode(handler: GatewayHandler, req: NodeRequestLike, res: ServerResponse): Promise<void> {
  const left = new AbortController()
  // 'close' before the reply finished: the browser went away (an aborted fetch, a closed tab).
  res.once('close', () => {
    if (!res.writableFinished) left.abort()
  })
  let request: Request
  try {
    request = toRequest(req, left.signal)
  } catch {
    res.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    return void res.end(JSON.stringify({ error: { message: 'The request could not be read (its URL or headers are malformed).', type: 'invalid_request_error', param: null, code: 'bad_request' } }))
  }
  const response = await handler(request)
  if (left.signal.aborted) {
    await response.body?.cancel().catch(() => {})
    return
  }
  res.statusCode = response.status
  response.headers.forEach((value, name) => res.setHeader(name, value))
  if (!req.complete) res.setHeader('connection', 'close')
  if (!response.body) return void res.end()
  // Headers go at once: a stream's first event may be a while coming.
  res.flushHeaders()
  const reader = response.body.getReader()
  left.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (!res.write(value)) await drained(res, left.signal)
    }
    res.end()
  } catch {
    // The gateway's stream broke: break the browser's too, so its client sees a cut reply (and may resume), not a clean end.
    res.destroy()
  }
}

function toRequest(req: NodeRequestLike, signal: AbortSignal): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  const url = new URL(req.originalUrl ?? req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`)
  const method = req.method ?? 'GET'
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal }
  if (method !== 'GET' && method !== 'HEAD') {
    if (req.readableEnded && req.body !== undefined) {
      // A body parser (express.json()) has read the stream already: send on what it parsed.
      init.body = typeof req.body === 'string' ? req.body : req.body instanceof Uint8Array ? new Uint8Array(req.body) : JSON.stringify(req.body)
      headers.delete('content-length')
    } else {
      init.body = bodyOf(req)
      init.duplex = 'half'
    }
  }
  return new Request(url, init)
}

/**
 * The request's body as a web stream, read as the handler pulls it. Unlike
 * `Readable.toWeb`, cancelling it (a body refused half-way) does not destroy
 * the socket, so the refusal can still be written; the rest of the body is
 * read and dropped until the reply closes the connection.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let wanted = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (!wanted) return
        controller.enqueue(new Uint8Array(chunk))
        if ((controller.desiredSize ?? 0) <= 0) req.pause()
      })
      req.once('end', () => wanted && controller.close())
      // A caller that goes away mid-body: the read fails (with a listener, the error is not thrown).
      req.on('error', (error) => wanted && controller.error(error))
    },
    pull: () => void req.resume(),
    cancel: () => {
      wanted = false
      req.resume()
    },
  })
}

function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      signal.removeEventListener('abort', done)
      resolve()
    }
    res.on('drain', done)
    signal.addEventListener('abort', done, { once: true })
  })
}
