import type { IncomingMessage, ServerResponse } from 'node:http'
import { answerVia, type GatewayHandler } from './handler.js'
import { nodeCall } from './nodeCall.js'
import { toRequest, type NodeRequestLike } from './nodeRequest.js'
import { RelayedStream } from './relayedStream.js'

export type { NodeRequestLike } from './nodeRequest.js'

/**
 * Adapts a fetch-style handler to `node:http`: `createServer(nodeListener(handler))`.
 * The handler's `Request` has the path asked for on the host the `Host`
 * header names (a `Host` that would name another, `a@b`, is a JSON 400).
 * Requests outside the handler's `basePath` get its JSON 404. The reply is
 * written as it arrives (events are not held back), with backpressure; when
 * the browser goes away the handler's request is aborted, which aborts the
 * gateway call. Unless the handler was given a `fetch`, the gateway is
 * called through undici's dispatcher rather than `fetch`, so a stream goes
 * from the gateway's socket to the browser's with no web stream between
 * (see `undiciCall`). A reply sent before the request's body has all
 * arrived (a refusal: too large, too slow, unauthorized) closes the
 * connection, rather than reading on a body no one wants.
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
  // Loaded now rather than at the first request.
  nodeCall()
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
  const response = await answerVia(handler, request, nodeCall())
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
  // A relayed stream is read as the chunks it is made of: no web stream between the gateway's socket and the browser's.
  const chunks = response instanceof RelayedStream ? response.chunks : readerChunks(response.body.getReader())
  left.signal.addEventListener('abort', () => void chunks.return?.().catch(() => {}), { once: true })
  try {
    // Once the browser has left, nothing more is read, whatever the source does when stopped.
    while (!left.signal.aborted) {
      const { done, value } = await chunks.next()
      if (done) break
      if (!res.write(value)) await drained(res, left.signal)
    }
    res.end()
  } catch {
    // The gateway's stream broke: break the browser's too, so its client sees a cut reply (and may resume), not a clean end.
    res.destroy()
  }
}

/** A web stream's reader as an iterator: stopping it cancels the stream. */
function readerChunks(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterator<Uint8Array> {
  return {
    next: async () => (await reader.read()) as IteratorResult<Uint8Array>,
    return: async () => {
      await reader.cancel()
      return { done: true, value: undefined }
    },
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
