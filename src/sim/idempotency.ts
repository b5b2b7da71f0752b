import { apiError } from './apiError.js'
import { canonicalJson } from './canonicalJson.js'
import type { Call } from './call.js'
import type { SimSettings } from './options.js'
import type { StoredResponse } from './responseModel.js'
import type { Task } from './taskModel.js'

/** What a creation produced, kept under its idempotency key. */
export type Created = { readonly kind: 'task'; readonly task: Task } | { readonly kind: 'response'; readonly response: StoredResponse }

interface Entry {
  readonly path: string
  readonly body: string
  readonly created: Created
}

/** Creations by `Idempotency-Key`. */
export type IdempotencyStore = Map<string, Entry>

/**
 * The key of a creation POST, and what it already created. With
 * `idempotency: 'honour'`, a key seen before with the same path and the same
 * body (compared as canonical JSON, so key order does not matter) returns
 * the first creation; with another path or body it is a 409
 * `idempotency_key_reused`. With `'ignore'`, or without a key, nothing is
 * returned and the request creates anew.
 */
export function priorCreation(call: Call, env: { readonly settings: SimSettings; readonly idempotency: IdempotencyStore }, body: unknown): { key?: string; prior?: Created; remember(created: Created): void } {
  const key = call.log.idempotencyKey
  if (key === undefined || env.settings.idempotency === 'ignore') return { ...(key === undefined ? {} : { key }), remember: () => {} }
  const text = canonicalJson(body)
  const entry = env.idempotency.get(key)
  if (entry && (entry.path !== call.url.pathname || entry.body !== text)) {
    throw apiError(
      409,
      'This Idempotency-Key was already used with another request (a different path or body): use a new key for a new request.',
      'idempotency_key_reused',
      { param: null },
    )
  }
  return {
    key,
    ...(entry ? { prior: entry.created } : {}),
    remember: (created) => void env.idempotency.set(key, { path: call.url.pathname, body: text, created }),
  }
}
