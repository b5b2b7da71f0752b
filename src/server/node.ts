import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
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
 * gateway call.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createGatewayHandler, nodeListener } from 'rxgate/server'
 *
 * const handler = createGatewayHandler({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
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
      init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
      init.duplex = 'half'
    }
  }
  return new Request(url, init)
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
