import { creationHttpError, isHttpError } from '../errors/HttpError.js'
import type { CreationKey } from '../errors/resendAdvice.js'

/**
 * A fresh `Idempotency-Key`: a random UUID (v4). `crypto.randomUUID` exists
 * only in secure contexts of browsers, so bytes from `getRandomValues` are
 * formatted by hand where it is missing.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * The key of one creation: the caller's `idempotencyKey` (`chosen`), or a
 * fresh one; `honoured` when the client says the gateway honours keys
 * (`idempotentCreate`). Make one per subscription, so that each call's
 * attempts share it and two calls never do.
 *
 * @example
 * ```ts
 * const key = creationKey(client, options.idempotencyKey)
 * const headers = { 'idempotency-key': key.idempotencyKey }
 * ```
 */
export function creationKey(policy: { readonly idempotentCreate: boolean }, chosen: string | undefined): CreationKey {
  return { idempotencyKey: chosen ?? newIdempotencyKey(), chosen: chosen !== undefined, honoured: policy.idempotentCreate }
}

/**
 * The error a creation ends in, told how to send it again safely: a 5xx
 * after an attempt that may have made the `thing` (`mayExist`, see
 * `createRule`) becomes a copy whose message says so (see
 * `creationHttpError`). Anything else is returned as it is: a failure
 * that certainly created nothing needs no warning, and one that is not an
 * HttpError says what happened already.
 *
 * @example
 * ```ts
 * const rule = createRule(client)
 * request$(client, spec, decode, rule, (error) => creationFailure(error, key, rule.mayExist, 'response'))
 * ```
 */
export function creationFailure(error: unknown, key: CreationKey, mayExist: boolean, thing: string): unknown {
  return mayExist && isHttpError(error) && error.status >= 500 ? creationHttpError(error, key, thing) : error
}
