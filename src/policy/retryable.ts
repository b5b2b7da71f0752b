import { isConnectionError } from '../errors/ConnectionError.js'
import { isHttpError } from '../errors/HttpError.js'
import { isTimeoutError } from '../errors/TimeoutError.js'
import { isValidationError } from '../errors/ValidationError.js'

/**
 * Whether a failure may pass if the same request is sent again later: a
 * broken or silent connection, a malformed reply, 408, a 429 that is a rate
 * limit (not a quota), or a 5xx. A deadline, a 4xx, a failed response or
 * task, a reply over a size limit are not.
 */
export function isTransient(error: unknown): boolean {
  if (isHttpError(error)) return !error.permanent
  if (isTimeoutError(error)) return error.reason === 'silence'
  return isConnectionError(error) || isValidationError(error)
}

/**
 * Whether a failed request certainly had no effect, so that sending again
 * cannot create anything twice: the connection was refused before a byte
 * left, or the gateway answered 503 or a rate-limiting 429. (A 408 is not
 * counted: a gateway may send it when its upstream timed out on work it had begun.)
 */
export function neverArrived(error: unknown): boolean {
  if (isHttpError(error)) return error.status === 503 || (error.status === 429 && !error.permanent)
  return isConnectionError(error) && !error.sent
}

/**
 * Whether a failed creation certainly created nothing: it never arrived, or
 * the gateway answered with a status no retry changes (a 4xx, a quota 429).
 * Any other failure leaves the outcome unknown: the task may exist.
 */
export function certainlyNotCreated(error: unknown): boolean {
  return neverArrived(error) || (isHttpError(error) && error.permanent)
}
