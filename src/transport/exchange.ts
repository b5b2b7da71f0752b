import { errorCode } from '../errors/causes.js'
import { ConnectionError } from '../errors/ConnectionError.js'
import { HttpError, requestIdOf } from '../errors/HttpError.js'
import { PayloadTooLargeError } from '../errors/PayloadTooLargeError.js'
import { scrubText } from '../errors/redact.js'
import type { AbortSignalLike } from './abort.js'
import { bodyText } from './bodyText.js'
import { parseRetryAfter } from './retryAfter.js'
import type { AttemptTrace, Connection, Pass, RequestSpec, TransportRequest, TransportResponse } from './types.js'

/** An error body is read only this far: enough for any message, never a memory risk. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024

/** The head of a 2xx reply whose body is still to be read, and the end of its exchange: call `end` once, when the body is read or given up. */
export interface Head extends Pick<TransportResponse, 'status' | 'header'> {
  end(error?: unknown): void
}

/** A 2xx reply of the Promise path: its head, and its body to read. */
export interface Opened extends TransportResponse, Head {}

/** What an exchange that its subscriber left is told it ended with. */
export const ABORTED = 'aborted'

const FREE: Pass = { answered: () => {}, done: () => {} }

/**
 * Sends one request, once the connection's gate (the client's budget)
 * admits it (then `admitted` is called), and resolves with a 2xx reply whose body is still to be read.
 * A network failure rejects with {@link ConnectionError}; a non-2xx reply
 * with {@link HttpError}, after reading at most 64 KB of its body. Either
 * way the gate is told how the exchange went.
 */
export async function open(conn: Connection, spec: RequestSpec, accept: string, signal: AbortSignalLike, admitted?: () => void): Promise<Opened> {
  const entry = enter(conn, spec, signal)
  // A pass given at once is taken without a turn of the event loop.
  const given = 'then' in entry ? await entry : entry
  // From here the request is on its way: its own time (`timeoutMs`) starts now, not while it queued.
  admitted?.()
  const attempt = spec.trace?.attempt(spec, conn.baseUrl + spec.path)
  const pass = attempt ? traced(given, attempt) : given
  let res: TransportResponse
  try {
    res = await conn.transport(requestOf(conn, spec, accept, signal, attempt?.headers))
  } catch (err) {
    const error = connectionError(spec, err, false)
    // An abort is the subscriber leaving (or the exchange's own timeout), not the network failing.
    pass.done(signal.aborted ? (signal.reason ?? ABORTED) : error)
    throw error
  }
  pass.answered(res.status)
  if (res.status >= 200 && res.status <= 299) {
    const opened = res as Opened
    opened.end = endOf(pass)
    return opened
  }
  const body = await readText(res, spec, MAX_ERROR_BODY_BYTES, 'cut').catch(() => '')
  const error = httpError(conn, spec, res, body)
  pass.done(error)
  throw error
}

/** Asks the connection's gate (the client's budget and hooks) to let a request go: its pass at once, or a promise of it when it must wait. */
export function enter(conn: Connection, spec: RequestSpec, signal: AbortSignalLike): Pass | Promise<Pass> {
  return conn.gate ? conn.gate.enter(spec, signal) : FREE
}

/**
 * The request as the transport (or exchange) gets it: the absolute URL and
 * the final headers. A trace's headers (`extra`) come first, so they never
 * replace the client's or the call's own (`authorization` among them).
 */
export function requestOf(conn: Connection, spec: RequestSpec, accept: string, signal: AbortSignalLike, extra?: Readonly<Record<string, string>>): TransportRequest {
  const headers: Record<string, string> = { ...extra, ...conn.headers, ...spec.headers, accept }
  if (spec.body !== undefined) headers['content-type'] = 'application/json'
  return { method: spec.method, url: conn.baseUrl + spec.path, headers, body: spec.body, signal, stream: accept === 'text/event-stream' }
}

/** The pass of a traced try: the gate's and the attempt's, told alike (the attempt alone when the gate is none). */
export function traced(pass: Pass, attempt: AttemptTrace): Pass {
  if (pass === FREE) return attempt
  return {
    answered(status) {
      pass.answered(status)
      attempt.answered(status)
    },
    done(error) {
      pass.done(error)
      attempt.done(error)
    },
  }
}

/** The end of an admitted exchange, for its 2xx reply's `end`: acts once. */
export function endOf(pass: Pass): (error?: unknown) => void {
  return pass === FREE ? FREE.done : once(pass)
}

/** The {@link HttpError} of a non-2xx reply, from its head and (the first 64 KB of) its body, masked of the key. */
export function httpError(conn: Connection, spec: RequestSpec, res: Pick<TransportResponse, 'status' | 'header'>, body: string): HttpError {
  return new HttpError({
    method: spec.method,
    path: pathOnly(spec.path),
    status: res.status,
    // Masked before anything can cut it: a cut key would leave a fragment.
    body: conn.secret ? scrubText(body, conn.secret) : body,
    retryAfterMs: retryAfterMs(res),
    requestId: safeRequestId(requestIdOf((name) => res.header(name)), conn.secret),
  })
}

/**
 * Reads a body as text, at most `limit` bytes: past it, `'fail'` rejects with
 * {@link PayloadTooLargeError} and `'cut'` returns what was read. With
 * `'fail'`, a body that says it is longer is refused before it is read; every body is counted
 * as it arrives, whatever length it says: a transport that decodes the body
 * (`fetch` does, for `Content-Encoding: br` or `gzip`) gets more bytes than
 * `Content-Length` counts, so an endless or compressed body never grows
 * memory past the limit.
 */
export async function readText(res: TransportResponse, spec: RequestSpec, limit: number, over: 'fail' | 'cut' = 'fail'): Promise<string> {
  try {
    if (over === 'fail' && Number(res.header('content-length')) > limit) throw tooLarge(spec, limit)
    if (res.textUpTo) {
      const { text, whole } = await res.textUpTo(limit)
      if (!whole && over === 'fail') throw tooLarge(spec, limit)
      return text
    }
    const text = bodyText(limit)
    for await (const chunk of res.body) {
      if (text.add(chunk)) continue
      if (over === 'fail') throw tooLarge(spec, limit)
      return text.end()
    }
    return text.end()
  } catch (err) {
    if (err instanceof PayloadTooLargeError) throw err
    throw connectionError(spec, err, true)
  }
}

/** The error of a JSON body over `maxBodyBytes`. */
export function tooLarge(spec: RequestSpec, limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(spec.method, pathOnly(spec.path), 'maxBodyBytes', limit)
}

/** `pass.done`, as a function that acts only the first time it is called. */
function once(pass: Pass): (error?: unknown) => void {
  let ended = false
  return (error) => {
    if (ended) return
    ended = true
    pass.done(error)
  }
}

/** `retry-after-ms` (sent by some OpenAI-compatible servers) when valid, else `Retry-After`. */
function retryAfterMs(res: Pick<TransportResponse, 'header'>): number | undefined {
  const ms = Number(res.header('retry-after-ms') ?? Number.NaN)
  return Number.isFinite(ms) && ms >= 0 ? ms : parseRetryAfter(res.header('retry-after'))
}

/** Codes of failures that happen before a single byte of the request left (`ERR_INVALID_URL`: a relative `baseUrl` where there is no page to resolve it against). */
export const NOT_SENT: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL'])

/** The {@link ConnectionError} for a failed exchange; `inBody` when the reply had begun. */
export function connectionError(spec: RequestSpec, err: unknown, inBody: boolean): ConnectionError {
  const code = errorCode(err)
  const sent = inBody || !code || !NOT_SENT.has(code)
  const detail = inBody
    ? `the connection closed in the middle of the reply${code ? ` (${code})` : ''}`
    : sent
      ? `the connection failed after the request was sent${code ? ` (${code})` : ''}; the gateway may have received it`
      : `could not reach the gateway (${code}); check baseUrl and the network`
  return new ConnectionError(spec.method, pathOnly(spec.path), detail, sent, err)
}

/** The path without its query, for messages: queries may hold ids, never keys, but stay out of logs. */
export function pathOnly(path: string): string {
  const q = path.indexOf('?')
  return q === -1 ? path : path.slice(0, q)
}

/** A request id that holds the key (a proxy echoing the credential) is no id to print: dropped. */
function safeRequestId(id: string | undefined, secret: string | undefined): string | undefined {
  return id !== undefined && secret && scrubText(id, secret) !== id ? undefined : id
}
