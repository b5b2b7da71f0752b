import type { RetryOptions } from './defaults.js'
import { retryWait } from './delays.js'
import type { RetryRule } from './request$.js'
import { isTransient, neverArrived } from './retryable.js'

/** Settings the retry rules read. */
export interface RetryPolicy {
  /** Retries of one request, or `false` for none. */
  readonly retry: Required<RetryOptions> | false
  /** The gateway honours `Idempotency-Key`: a creation whose outcome is unknown may be sent again with the same key. */
  readonly idempotentCreate: boolean
}

/** Reads (and other requests that change nothing twice): every failure that may pass, within the budget. */
export function readRule({ retry }: RetryPolicy): RetryRule {
  return (error, failures) => (retry && failures <= retry.count && isTransient(error) ? retryWait(error, failures, retry) : undefined)
}

/**
 * Creations (paid work): only a request that certainly never arrived is sent
 * again (connection refused, 503, a rate-limiting 429), so nothing is
 * created twice. When the gateway honours `Idempotency-Key`
 * (`idempotentCreate`), a creation whose outcome is unknown is sent again too,
 * with the same key.
 */
export function createRule({ retry, idempotentCreate }: RetryPolicy): RetryRule {
  return (error, failures) =>
    retry && failures <= retry.count && (neverArrived(error) || (idempotentCreate && isTransient(error))) ? retryWait(error, failures, retry) : undefined
}
