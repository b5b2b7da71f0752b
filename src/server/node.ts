import type { IncomingMessage, ServerResponse } from 'node:http'
import type { GatewayHandler } from './handler.js'
import { toRequest, type NodeRequestLike } from './nodeRequest.js'

export type { NodeRequestLike } from './nodeRequest.js'

/**
 * Adapts a fetch-style handler to `node:http`: `createServer(nodeListener(handler))`.
 * The handler's `Request` has the path asked for on the host the `Host`
 * header names (a `Host` that would name another, `a@b`, is a JSON 400).
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
 * import { sessions } from './sessions.js' // the app's own session store
 *
 * const handler = createGatewayHandler({
 *   baseUrl: process.env.GATEWAY_BASE_URL!,
 *   apiKey: process.env.GATEWAY_API_KEY!,
 *   authorize: async (request) => (await sessions.verify(request.headers.get('cookie'))) !== undefined,
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
