import { propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Tracer } from '@opentelemetry/api'
import type { AttemptSpec, AttemptTrace } from '../transport/types.js'

/** Where a request goes, as the HTTP conventions name it: never its query, never credentials of the URL. */
export interface Target {
  /** `url.full`: scheme, host, port and path only. */
  readonly full: string
  /** `server.address`, when the URL is absolute. */
  readonly address?: string
  /** `server.port`, when the URL is absolute. */
  readonly port?: number
}

/**
 * The parts of `url` a span may hold. The query is dropped whole (it may
 * carry ids or a signature), and so are a user and password, which `new
 * URL` keeps apart; `redact` masks what remains.
 */
export function targetOf(url: string, redact: (text: string) => string): Target {
  try {
    const u = new URL(url, (globalThis as { location?: { href?: string } }).location?.href)
    const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80)
    return { full: redact(u.origin + u.pathname), address: u.hostname.replace(/^\[|\]$/g, ''), port }
  } catch {
    return { full: redact(url.replace(/[?#].*$/s, '')) }
  }
}

/** The name of an error, for `error.type`: an rxgate error's class name (`ConnectionError`, `TimeoutError`, …), else `_OTHER`. */
export function errorType(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name
  return typeof name === 'string' && /^\w{1,64}$/.test(name) ? name : '_OTHER'
}

/**
 * Starts the HTTP client span of one try of a request, as a child of
 * `parent` (the call's span), and gives the W3C `traceparent` (and
 * `tracestate`) naming it, through the global propagator, for the request's
 * headers. A status of 400 or more, or a failure, marks it an error: its
 * `error.type` is the status (`'503'`) or the error's name; a try its
 * subscriber left ends with `rxgate.cancelled: true` and no status.
 */
export function startAttempt(tracer: Tracer, parent: Context, spec: AttemptSpec, url: string, redact: (text: string) => string, sent: readonly string[]): AttemptTrace {
  const target = targetOf(url, redact)
  const attributes: Attributes = { 'http.request.method': spec.method, 'url.full': target.full }
  if (target.address !== undefined) {
    attributes['server.address'] = target.address
    attributes['server.port'] = target.port
  }
  if (spec.retry) attributes['http.request.resend_count'] = spec.retry
  const span = tracer.startSpan(spec.method, { kind: SpanKind.CLIENT, attributes }, parent)
  const written: Record<string, string> = {}
  propagation.inject(trace.setSpan(parent, span), written)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(written)) if (sent.includes(name.toLowerCase())) headers[name.toLowerCase()] = value
  let status: number | undefined
  return {
    headers,
    answered(code) {
      status = code
      span.setAttribute('http.response.status_code', code)
    },
    done(error) {
      if (error === 'aborted') span.setAttribute('rxgate.cancelled', true)
      else if ((status !== undefined && status >= 400) || error !== undefined) {
        span.setAttribute('error.type', status !== undefined && status >= 400 ? String(status) : errorType(error))
        const message = error instanceof Error ? error.message : undefined
        span.setStatus(message ? { code: SpanStatusCode.ERROR, message: redact(message) } : { code: SpanStatusCode.ERROR })
      }
      span.end()
    },
  }
}
