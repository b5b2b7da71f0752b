import { errorCode } from '../errors/causes.js'
import { ConnectionError } from '../errors/ConnectionError.js'
import { HttpError } from '../errors/HttpError.js'
import { PayloadTooLargeError } from '../errors/PayloadTooLargeError.js'
import { scrubText } from '../errors/redact.js'
import type { AbortSignalLike } from './abort.js'
import { parseRetryAfter } from './retryAfter.js'
import type { Connection, Pass, RequestSpec, TransportResponse } from './types.js'

/** An error body is read only this far: enough for any message, never a memory risk. */
const MAX_ERROR_BODY_BYTES = 64 * 1024

/** A 2xx reply whose body is still to be read, and the end of its exchange: call `end` once, when the body is read or given up. */
export interface Opened extends TransportResponse {
  end(error?: unknown): void
}

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
  const entry = conn.gate ? conn.gate.enter(spec, signal) : FREE
  // A pass given at once is taken without a turn of the event loop.
  const pass = 'then' in entry ? await entry : entry
  // From here the request is on its way: its own time (`timeoutMs`) starts now, not while it queued.
  admitted?.()
  const headers: Record<string, string> = { ...conn.headers, ...spec.headers, accept }
  if (spec.body !== undefined) headers['content-type'] = 'application/json'
  let res: TransportResponse
  try {
    res = await conn.transport({ method: spec.method, url: conn.baseUrl + spec.path, headers, body: spec.body, signal, stream: accept === 'text/event-stream' })
  } catch (err) {
    const error = connectionError(spec, err, false)
    // An abort is the subscriber leaving (or the exchange's own timeout), not the network failing.
    pass.done(signal.aborted ? (signal.reason ?? ABORTED) : error)
    throw error
  }
  pass.answered(res.status)
  if (res.status >= 200 && res.status <= 299) {
    const opened = res as Opened
    opened.end = pass === FREE ? FREE.done : once(pass)
    return opened
  }
  const wait = retryAfterMs(res)
  const body = await readText(res, spec, MAX_ERROR_BODY_BYTES, 'cut').catch(() => '')
  const error = new HttpError({
    method: spec.method,
    path: pathOnly(spec.path),
    status: res.status,
    // Masked before anything can cut it: a cut key would leave a fragment.
    body: conn.secret ? scrubText(body, conn.secret) : body,
    retryAfterMs: wait,
  })
  pass.done(error)
  throw error
}

/**
 * Reads a body as text, at most `limit` bytes: past it, `'fail'` rejects with
 * {@link PayloadTooLargeError} and `'cut'` returns what was read. A body
 * that says its length within the limit is read in one go (undici's fast
 * path); any other is counted as it arrives, so an endless body never grows
 * memory past the limit.
 */
export async function readText(res: TransportResponse, spec: RequestSpec, limit: number, over: 'fail' | 'cut' = 'fail'): Promise<string> {
  try {
    const length = Number(res.header('content-length') ?? Number.NaN)
    if (length <= limit) return await res.text()
    if (length > limit && over === 'fail') throw tooLarge(spec, limit)
    if (res.textUpTo) {
      const { text, whole } = await res.textUpTo(limit)
      if (!whole && over === 'fail') throw tooLarge(spec, limit)
      return text
    }
    const decoder = new TextDecoder()
    let text = ''
    let bytes = 0
    for await (const chunk of res.body) {
      bytes += chunk.byteLength
      if (bytes > limit) {
        if (over === 'fail') throw tooLarge(spec, limit)
        return text + decoder.decode(chunk.subarray(0, chunk.byteLength - (bytes - limit)))
      }
      text += decoder.decode(chunk, { stream: true })
    }
    return text + decoder.decode()
  } catch (err) {
    if (err instanceof PayloadTooLargeError) throw err
    throw connectionError(spec, err, true)
  }
}

function tooLarge(spec: RequestSpec, limit: number): PayloadTooLargeError {
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
function retryAfterMs(res: TransportResponse): number | undefined {
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
