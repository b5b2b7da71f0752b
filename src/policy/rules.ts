import { isHttpError } from '../errors/HttpError.js'
import { DEFAULTS, type RetryOptions } from './defaults.js'
import { retryWait } from './delays.js'
import type { RetryRule } from './request$.js'
import { certainlyNotCreated, isTransient, neverArrived } from './retryable.js'

/** Settings the retry rules read. */
export interface RetryPolicy {
  /** Retries of one request, or `false` for none. */
  readonly retry: Required<RetryOptions> | false
  /** The gateway honours `Idempotency-Key`: a creation whose outcome is unknown may be sent again with the same key. */
  readonly idempotentCreate: boolean
  /**
   * The client's budget paces every request after a 429 (`adaptToRateLimits`):
   * a rate-limiting 429 then says "your turn later", not "this call failed",
   * so up to ten of them in a row (`PACED_RATE_LIMIT_RETRIES`) spend no retry.
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

/** A creation's retry rule, which also knows whether an attempt of its call may have made what it creates. */
export interface CreateRule extends RetryRule {
  /**
   * Some attempt failed in a way that may have created the thing (it is not
   * certainly uncreated). Judged over every attempt, not the last alone: once
   * one may have made the (paid) task, a later attempt that certainly made
   * nothing (a refused connection, a 429) leaves the outcome as unknown.
   */
  readonly mayExist: boolean
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
 * The rule remembers its call's attempts (`mayExist`): make one per call.
 */
export function createRule(policy: RetryPolicy): CreateRule {
  const { retry, idempotentCreate } = policy
  // A plain property the rule sets: a getter defined on each call's function costs more than the call's other rules.
  const rule = ((error: unknown, failures: number) => {
    if (!certainlyNotCreated(error)) rule.mayExist = true
    if (!retry) return undefined
    const lifted = idempotentCreate && rule.mayExist
    if (!neverArrived(error) && !(lifted && isTransient(error))) return undefined
    const limit = lifted ? Math.max(allowed(policy, error), DEFAULTS.pollFailures) : allowed(policy, error)
    return failures <= limit ? retryWait(error, failures, retry) : undefined
  }) as RetryRule & { mayExist: boolean }
  rule.mayExist = false
  return rule
}
