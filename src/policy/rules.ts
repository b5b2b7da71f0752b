import { isHttpError } from '../errors/HttpError.js'
import { DEFAULTS, type RetryOptions } from './defaults.js'
import { retryWait } from './delays.js'
import type { RetryRule } from './request$.js'
import { isTransient, mayHaveArrived, neverArrived } from './retryable.js'

/** Settings the retry rules read. */
export interface RetryPolicy {
  /** Retries of one request, or `false` for none. */
  readonly retry: Required<RetryOptions> | false
  /** The gateway honours `Idempotency-Key`: a creation whose outcome is unknown may be sent again with the same key. */
  readonly idempotentCreate: boolean
  /**
   * The client's budget paces every request after a 429 (`adaptToRateLimits`):
   * a rate-limiting 429 then says "your turn later", not "this call failed",
   * so up to {@link PACED_RATE_LIMIT_RETRIES} of them in a row spend no retry.
   */
  readonly pacedRateLimits?: boolean
}

/** Rate-limiting 429s in a row a call survives when the client's budget paces them. */
export const PACED_RATE_LIMIT_RETRIES = 10

/** Failures in a row allowed before giving up on `error`. */
function allowed({ retry, pacedRateLimits }: RetryPolicy, error: unknown): number {
  if (!retry) return -1
  const paced = pacedRateLimits && isHttpError(error) && error.status === 429 && !error.permanent
  return paced ? Math.max(retry.count, PACED_RATE_LIMIT_RETRIES) : retry.count
}

/** Reads (and other requests that change nothing twice): every failure that may pass, within the budget. */
export function readRule(policy: RetryPolicy): RetryRule {
  const { retry } = policy
  return (error, failures) => (retry && failures <= allowed(policy, error) && isTransient(error) ? retryWait(error, failures, retry) : undefined)
}

/**
 * Creations (paid work): only a request that certainly never arrived is sent
 * again (connection refused, 503, a rate-limiting 429), within `retry.count`,
 * so nothing is created twice. When the gateway honours `Idempotency-Key`
 * (`idempotentCreate`), a creation whose outcome is unknown is sent again too,
 * with the same key, and from then on every failure that may pass (a 503 or
 * a refused connection as much as a reset) rides out as many failures in a
 * row as a task follow: giving up would leave an unknown outcome while a
 * resend is still safe.
 *
 * The rule remembers whether an attempt of its call may have arrived: make one per call.
 */
export function createRule(policy: RetryPolicy): RetryRule {
  const { retry, idempotentCreate } = policy
  let mayExist = false
  return (error, failures) => {
    if (!retry) return undefined
    if (idempotentCreate && mayHaveArrived(error)) mayExist = true
    if (!neverArrived(error) && !(mayExist && isTransient(error))) return undefined
    const limit = mayExist ? Math.max(allowed(policy, error), DEFAULTS.pollFailures) : allowed(policy, error)
    return failures <= limit ? retryWait(error, failures, retry) : undefined
  }
}
