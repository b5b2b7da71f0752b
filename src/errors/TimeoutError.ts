import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A call took too long, and its request was aborted. `reason` says which
 * limit: `silence` (no reply, or no complete stream event, within
 * `timeoutMs`; pings and partial bytes do not count) or `deadline` (the
 * call's overall `deadlineMs` passed).
 */
export class TimeoutError extends GatewayError {
  /** Always `'TimeoutError'`; test it with {@link isTimeoutError}. */
  override name = 'TimeoutError' as const
  /** The request's method. */
  readonly method: string
  /** The request's path (no host, no key). */
  readonly path: string
  /** The limit that passed, in milliseconds: `timeoutMs` for `silence`, `deadlineMs` for `deadline`. */
  readonly timeoutMs: number
  /** Which limit passed: no complete reply or event within `timeoutMs`, or the call's overall `deadlineMs`. */
  readonly reason: 'silence' | 'deadline'

  constructor(method: string, path: string, timeoutMs: number, reason: 'silence' | 'deadline' = 'silence') {
    super(
      reason === 'silence'
        ? `${method} ${path}: nothing complete arrived within ${timeoutMs} ms; the request was aborted. Raise timeoutMs if the gateway is slow.`
        : `${method} ${path}: not finished within its deadline of ${timeoutMs} ms; the request was aborted. Raise deadlineMs to allow longer.`,
    )
    this.method = method
    this.path = path
    this.timeoutMs = timeoutMs
    this.reason = reason
  }
}

/** Whether `value` is a {@link TimeoutError}, from any copy of rxgate. */
export const isTimeoutError = isNamed<TimeoutError>('TimeoutError')
