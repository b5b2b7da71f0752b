import type { IncomingMessage } from 'node:http'

/** A `node:http` request as the adapters read it: Express's adds `originalUrl` (the path before mounting) and maybe a parsed `body`. */
export interface NodeRequestLike extends IncomingMessage {
  /** Express: the path before the router was mounted, which the handler routes by. */
  readonly originalUrl?: string
  /** The body a body parser already read: a string or bytes are sent on as they are, anything else as JSON. */
  readonly body?: unknown
}

/**
 * A `node:http` request as a fetch `Request`: its URL (path on the host its
 * `Host` names), every header, and its body, read as the handler pulls it
 * (or, after a body parser, what it parsed). Throws on a request it cannot
 * turn into one (a malformed URL or `Host`), which the adapter answers with a 400.
 *
 * @example
 * ```ts
 * const request = toRequest(req, left.signal)
 * ```
 */
export function toRequest(req: NodeRequestLike, signal: AbortSignal): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  const url = requestUrl(req)
  const method = req.method ?? 'GET'
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal }
  if (method !== 'GET' && method !== 'HEAD') {
    if (req.readableEnded) {
      // A body parser (express.json()) has read the stream already: send on what it parsed. A middleware that read it
      // and kept nothing leaves no body: answered at once as empty, where a wait for the spent stream would end in a 408.
      if (req.body !== undefined) init.body = typeof req.body === 'string' ? req.body : req.body instanceof Uint8Array ? new Uint8Array(req.body) : JSON.stringify(req.body)
      headers.delete('content-length')
    } else {
      init.body = bodyOf(req)
      init.duplex = 'half'
    }
  }
  return new Request(url, init)
}

/** A header naming a host and maybe a port, nothing that could move the URL elsewhere (`a@b`, `a/b`). */
const HOST = /^[^\s@/\\?#]+$/

/**
 * The URL the browser asked for: its path, on the host its `Host` header
 * names. The path is appended to the origin as text, never resolved against
 * it, so a path written `//127.0.0.1/…` stays a path and cannot stand in for
 * the host (a loopback check reads the host). Throws on a malformed one.
 */
function requestUrl(req: NodeRequestLike): URL {
  const host = req.headers.host ?? 'localhost'
  if (!HOST.test(host)) throw new TypeError('malformed Host header')
  const target = req.originalUrl ?? req.url ?? '/'
  // Absolute form (`GET http://host/path`), which only proxies are sent: its host is the one asked for.
  return target.startsWith('/') ? new URL(`http://${host}${target}`) : new URL(target)
}

/**
 * The request's body as a web stream, read as the handler pulls it: the
 * request is only set flowing at the first read, so a call refused before
 * its body is wanted (a 401, a 404) never starts reading it. Unlike
 * `Readable.toWeb`, cancelling it (a body refused half-way) does not destroy
 * the socket, so the refusal can still be written; the rest of the body is
 * read and dropped until the reply closes the connection.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let wanted = true
  let listening = false
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true
          req.on('data', (chunk: Buffer) => {
            if (!wanted) return
            controller.enqueue(new Uint8Array(chunk))
            // Nothing is read ahead (highWaterMark 0): each part waits for the read after it, the rest in the socket.
            req.pause()
          })
          req.once('end', () => wanted && controller.close())
          // A caller that goes away mid-body: the read fails (with a listener, the error is not thrown).
          req.on('error', (error) => wanted && controller.error(error))
        }
        req.resume()
      },
      cancel: () => {
        wanted = false
        req.resume()
      },
    },
    // No read ahead: the first pull is the handler's first read.
    { highWaterMark: 0 },
  )
}
