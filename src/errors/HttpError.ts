import { GatewayError } from './GatewayError.js'
import { parseErrorBody } from './parseErrorBody.js'

/**
 * What an HTTP status means for the caller, so code can branch without
 * comparing numbers: `auth` (401, 403), `payment` (402), `not_found` (404),
 * `rate_limit` (429), `timeout` (408), `server` (5xx), `rejected` (any other).
 */
export type HttpErrorKind = 'auth' | 'payment' | 'not_found' | 'rate_limit' | 'timeout' | 'server' | 'rejected'

const ADVICE: Record<HttpErrorKind, string> = {
  auth: 'Check the apiKey given to createGateway().',
  payment: 'The account balance is too low for this call.',
  not_found: 'Check the path and the id.',
  rate_limit: 'The gateway asks to slow down.',
  timeout: 'The gateway timed out waiting for the request.',
  server: 'The gateway failed; try again later.',
  rejected: 'The gateway rejected the request.',
}

/**
 * The gateway answered with a non-2xx status. `code` and `message` are read
 * from the body whatever its shape (also non-JSON or empty); `retryAfterMs`
 * is the `Retry-After` header when one was sent.
 *
 * @example
 * ```ts
 * catchError((err) => err instanceof HttpError && err.kind === 'rate_limit' ? later$ : throwError(() => err))
 * ```
 */
export class HttpError extends GatewayError {
  override name = 'HttpError' as const
  readonly status: number
  readonly kind: HttpErrorKind
  readonly code: string | number | undefined
  readonly gatewayMessage: string | undefined
  readonly retryAfterMs: number | undefined
  readonly method: string
  readonly path: string

  constructor(init: {
    method: string
    path: string
    status: number
    body: string
    retryAfterMs?: number | undefined
  }) {
    const { code, message } = parseErrorBody(init.body)
    const kind = httpErrorKind(init.status)
    const said = message ? `: ${message}` : ''
    const wait = init.retryAfterMs === undefined ? '' : ` Retry after ${Math.ceil(init.retryAfterMs / 1000)} s.`
    super(`${init.method} ${init.path} answered ${init.status}${said}. ${ADVICE[kind]}${wait}`)
    this.status = init.status
    this.kind = kind
    this.code = code
    this.gatewayMessage = message
    this.retryAfterMs = init.retryAfterMs
    this.method = init.method
    this.path = init.path
  }
}

/** Maps a status to its {@link HttpErrorKind}. */
export function httpErrorKind(status: number): HttpErrorKind {
  if (status === 401 || status === 403) return 'auth'
  if (status === 402) return 'payment'
  if (status === 404) return 'not_found'
  if (status === 408) return 'timeout'
  if (status === 429) return 'rate_limit'
  if (status >= 500) return 'server'
  return 'rejected'
}
