import { errorCode } from '../errors/causes.js'
import { scrubText, WHOLE_KEY } from '../errors/redact.js'
import { MAX_ERROR_BODY_BYTES, NOT_SENT } from '../transport/exchange.js'
import type { HandlerSettings } from './options.js'
import { errorReply, Refusal } from './reply.js'
import type { Route } from './routes.js'
import type { CallGateway, GatewayReply } from './upstream.js'

/** Reply headers of the gateway that mean something to the client; the rest (cookies, `www-authenticate`, …) stay here. */
const PASSED_HEADERS = ['content-type', 'retry-after', 'retry-after-ms', 'x-request-id']

/**
 * Sends one checked call to the gateway with the key, through `call` (the
 * app's `fetch`, or undici's dispatcher under the Node adapters), and turns
 * its reply into the browser's: an event stream is passed through as it
 * arrives (each line masked of the key); a JSON reply, an error included,
 * is read within its limit and masked whole. The mask finds the key in what
 * the browser's JSON decoder will read too (`sk-\u0061…`, `\/`), so a
 * gateway cannot slip it past in escapes. The request's `signal` (the
 * browser leaving) aborts the call at any stage, the stream included.
 *
 * @example
 * ```ts
 * const reply = await forward(settings, route, JSON.stringify(body), request, fetchCall(fetch))
 * ```
 */
export async function forward(settings: HandlerSettings, route: Route, body: string | undefined, request: Request, call: CallGateway): Promise<Response> {
  const headers: Record<string, string> = {
    ...settings.headers,
    authorization: `Bearer ${settings.apiKey}`,
    accept: /text\/event-stream/i.test(request.headers.get('accept') ?? '') ? 'text/event-stream' : 'application/json',
  }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const key = request.headers.get('idempotency-key')
  if (key !== null) {
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new Refusal(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.')
    headers['idempotency-key'] = key
  }
  let upstream: GatewayReply
  try {
    upstream = await call({ method: route.method, url: settings.baseUrl + route.path, headers, body, signal: request.signal })
  } catch (error) {
    // A reply the call will not pass on (one it cannot mask): refused as it said.
    if (error instanceof Refusal) throw error
    // 503 only when the request certainly never left: the client may then send a creation again safely.
    const notSent = NOT_SENT.has(errorCode(error) ?? '')
    return errorReply(notSent ? 503 : 502, 'gateway_unreachable', notSent ? 'The gateway could not be reached; nothing was sent.' : 'The connection to the gateway failed; the call may have reached it.')
  }
  const { status } = upstream
  if (status >= 300 && status <= 399) {
    upstream.discard()
    return errorReply(502, 'gateway_redirect', `The gateway answered ${status} (a redirect), which this server does not follow.`)
  }
  const replyHeaders: Record<string, string> = { 'cache-control': 'no-store' }
  for (const name of PASSED_HEADERS) {
    const value = upstream.header(name)
    if (value !== undefined) replyHeaders[name] = scrubText(value, settings.apiKey, WHOLE_KEY)
  }
  // A status that has no body (204, 205) is passed on as it came: a Response with a body cannot have one.
  if (NO_BODY.has(status)) {
    upstream.discard()
    return new Response(null, { status, headers: replyHeaders })
  }
  if (status >= 200 && status <= 299 && /^text\/event-stream/i.test(upstream.header('content-type') ?? '')) {
    // `x-accel-buffering: no` asks a proxy in front (nginx) not to hold the events back either.
    return upstream.relay(settings.apiKey, { status, headers: { ...replyHeaders, 'x-accel-buffering': 'no' } })
  }
  const ok = status >= 200 && status <= 299
  let text: string
  try {
    // An error body is read only as far as the client reads one: enough for any message.
    const read = await upstream.textUpTo(ok ? settings.maxReplyBytes : MAX_ERROR_BODY_BYTES)
    // Past the limit, a 2xx reply is refused (502) and an error body is cut.
    if (ok && !read.whole) return errorReply(502, 'gateway_reply_too_large', `The gateway's reply is larger than this server passes on (${settings.maxReplyBytes} bytes).`)
    text = read.text
  } catch {
    return errorReply(502, 'gateway_reply_broken', 'The connection to the gateway closed in the middle of its reply.')
  }
  const bytes = new TextEncoder().encode(scrubText(text, settings.apiKey, WHOLE_KEY))
  // A known length lets the client read the reply in one go.
  return new Response(bytes, { status, headers: { ...replyHeaders, 'content-length': String(bytes.byteLength) } })
}

const NO_BODY = new Set([204, 205])
