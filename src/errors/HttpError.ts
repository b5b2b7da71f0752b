import { GatewayError, isNamed } from './GatewayError.js'
import { parseErrorBody } from './parseErrorBody.js'
import { resendAdvice, type CreationKey } from './resendAdvice.js'

/**
 * What an HTTP status means for the caller, so code can branch without
 * comparing numbers: `auth` (401), `forbidden` (403), `payment` (402),
 * `not_found` (404), `rate_limit` (429), `timeout` (408), `server` (5xx),
 * `rejected` (any other).
 */
export type HttpErrorKind = 'auth' | 'forbidden' | 'payment' | 'not_found' | 'rate_limit' | 'timeout' | 'server' | 'rejected'

const ADVICE: Record<HttpErrorKind, string> = {
  auth: 'Check the apiKey given to the client',
  forbidden: 'The key is valid but may not use this endpoint or model; check its permissions',
  payment: 'The account balance is too low for this call',
  not_found: 'Check the path and the id',
  rate_limit: 'The gateway asks to slow down',
  timeout: 'The gateway timed out waiting for the request',
  server: 'The gateway failed; try again later',
  rejected: 'The gateway rejected the request',
}

// A 429 is not always a rate limit: out of credit, a spend cap or a billing
// problem is answered 429 too, and no retry fixes those.
const PERMANENT_429 = /billing|spend|budget|credit|balance/i
// "Quota" alone is ambiguous: a per-minute quota (Google's "Quota exceeded for
// quota metric '… per minute'") is a rate limit, and passes.
const QUOTA = /quota/i
// A rate limit says so, and may still mention billing: OpenAI's per-minute
// 429 links to the billing page to raise the limit.
const RATE = /per (second|minute|hour)|\brate\b|rate[_ -]?limit|\b[RT]P[SM]\b/i

function permanent429(code: string | number | undefined, type: string | undefined, message: string | undefined): boolean {
  const said = `${code ?? ''} ${type ?? ''} ${message ?? ''}`
  return /insufficient_quota/i.test(said) || (!RATE.test(said) && (PERMANENT_429.test(said) || QUOTA.test(said)))
}

/**
 * The gateway answered with a non-2xx status. `code`, `type` and
 * `gatewayMessage` are read from the body whatever its shape (also non-JSON
 * or empty); `retryAfterMs` is the `Retry-After` header when one was sent.
 * `permanent` says that sending the same request again cannot succeed: any
 * status but 408, 429 and 5xx, or a 429 whose body marks a quota, spend cap or
 * billing condition (`insufficient_quota`).
 *
 * @example
 * ```ts
 * catchError((err) => isHttpError(err) && err.kind === 'rate_limit' && !err.permanent ? later$ : throwError(() => err))
 * ```
 */
export class HttpError extends GatewayError {
  /** Always `'HttpError'`; test it with {@link isHttpError}. */
  override name = 'HttpError' as const
  /** The HTTP status the gateway answered with. */
  readonly status: number
  /** What the status means for the caller (see {@link HttpErrorKind}). */
  readonly kind: HttpErrorKind
  /** The error's `code` when the body gave one, e.g. `rate_limit_exceeded`. */
  readonly code: string | number | undefined
  /** The error's `type` when the body gave one (OpenAI's `invalid_request_error`, `insufficient_quota`, …). */
  readonly type: string | undefined
  /** The gateway's own message from the body, when it gave one. */
  readonly gatewayMessage: string | undefined
  /** The `Retry-After` header in milliseconds, when one was sent. */
  readonly retryAfterMs: number | undefined
  /**
   * Sending the same request again cannot succeed: any status but 408, 429 and 5xx, or a 429 for
   * quota, spend cap or billing.
   */
  readonly permanent: boolean
  /** The request's method. */
  readonly method: string
  /** The request's path (no host, no key). */
  readonly path: string
  /**
   * The gateway's id of the request (`x-request-id`, or another request-id
   * header it sent), what its support asks for; also in the message.
   */
  readonly requestId: string | undefined

  constructor(init: { method: string; path: string; status: number; body: string; retryAfterMs?: number | undefined; requestId?: string | undefined }) {
    const { code, type, message } = parseErrorBody(init.body)
    const kind = httpErrorKind(init.status)
    const quota = init.status === 429 && permanent429(code, type, message)
    const permanent = quota || !(init.status === 408 || init.status === 429 || init.status >= 500)
    const advice = quota ? 'The account is out of quota or credit; retrying will not help' : ADVICE[kind]
    const wait = init.retryAfterMs === undefined || permanent ? '' : ` Retry after ${Math.ceil(init.retryAfterMs / 1000)} s.`
    super(`${answered(init.method, init.path, init.status, message, init.requestId)}. ${advice}.${wait}`)
    this.status = init.status
    this.kind = kind
    this.code = code
    this.type = type
    this.gatewayMessage = message
    this.retryAfterMs = init.retryAfterMs
    this.permanent = permanent
    this.method = init.method
    this.path = init.path
    this.requestId = init.requestId
  }
}

/**
 * The first sentence of an HttpError's message: what was answered, without advice.
 *
 * @example
 * ```ts
 * answered('POST', '/vendors/vendor-a/v1/responses', 500, 'Upstream failed.')
 * // 'POST /vendors/vendor-a/v1/responses answered 500: Upstream failed'
 * ```
 */
export function answered(method: string, path: string, status: number, gatewayMessage: string | undefined, requestId?: string): string {
  const id = requestId ? ` (request ${requestId})` : ''
  return `${method} ${path} answered ${status}${id}${gatewayMessage ? `: ${gatewayMessage.replace(/[.\s]+$/, '')}` : ''}`
}

/** Headers gateways name their request id in, the most common first. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-amz-request-id', 'x-acs-request-id', 'x-ms-request-id', 'x-goog-request-id']

/**
 * The gateway's id of a request, from the first request-id header its reply
 * has; at most 128 printable characters (anything else is not an id).
 *
 * @example
 * ```ts
 * requestIdOf((name) => (name === 'x-request-id' ? 'req_8f2a' : undefined)) // 'req_8f2a'
 * ```
 */
export function requestIdOf(header: (name: string) => string | undefined): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = header(name)?.trim()
    if (value && value.length <= 128 && /^[\x21-\x7e]+$/.test(value)) return value
  }
  return undefined
}

/**
 * The same 5xx failure of a creation that may have taken effect, its advice
 * ("try again later", unsafe for paid work) replaced by how to send it again
 * safely (see {@link resendAdvice}). A copy: the error given is left as it was.
 *
 * @example
 * ```ts
 * creationHttpError(error, { idempotencyKey: key, chosen: false, honoured: false }, 'response').message
 * // "POST /vendors/vendor-a/v1/responses answered 500. The gateway failed, but the response may have been created anyway. Sending it again may create a second response. …"
 * ```
 */
export function creationHttpError(error: HttpError, key: CreationKey, thing: string): HttpError {
  const copy = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error)) as HttpError
  const safe = key.chosen || key.honoured
  const wait = error.retryAfterMs === undefined || !safe ? '' : ` Retry after ${Math.ceil(error.retryAfterMs / 1000)} s.`
  const message = `${answered(error.method, error.path, error.status, error.gatewayMessage, error.requestId)}. The gateway failed, but the ${thing} may have been created anyway. ${resendAdvice(key, thing)}${wait}`
  copy.message = message
  if (typeof error.stack === 'string') copy.stack = error.stack.replace(error.message, () => message)
  return copy
}

/** Whether `value` is an {@link HttpError}, from any copy of rxgate. */
export const isHttpError = isNamed<HttpError>('HttpError')

/** Maps a status to its {@link HttpErrorKind}. */
export function httpErrorKind(status: number): HttpErrorKind {
  if (status === 401) return 'auth'
  if (status === 403) return 'forbidden'
  if (status === 402) return 'payment'
  if (status === 404) return 'not_found'
  if (status === 408) return 'timeout'
  if (status === 429) return 'rate_limit'
  if (status >= 500) return 'server'
  return 'rejected'
}
