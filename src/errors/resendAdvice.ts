/** The `Idempotency-Key` a creation was sent with, and what makes sending it again safe. */
export interface CreationKey {
  /** The key every attempt of the creation was sent with. */
  readonly idempotencyKey: string
  /** The caller chose it (the `idempotencyKey` option), so it could be kept before anything was sent. */
  readonly chosen: boolean
  /** The client says the gateway honours keys (`idempotentCreate: true`). */
  readonly honoured: boolean
}

/**
 * What to tell the caller of a creation that may have taken effect (a task
 * or response that may exist and be paid for) about sending it again.
 * Sent with a key the caller chose, or to a gateway the client says honours
 * keys: the key, and that sending again with it is safe. Otherwise: that
 * `idempotentCreate: true` or an explicit `idempotencyKey` makes sending
 * again safe, and the key this one went with. `thing` names what the
 * creation makes (`'task'`, `'response'`).
 *
 * @example
 * ```ts
 * resendAdvice({ idempotencyKey: 'k-1', chosen: true, honoured: false }, 'task')
 * // "It was sent with Idempotency-Key 'k-1': create again with { idempotencyKey: 'k-1' } to get the same task; with the same key, sending again is safe on a gateway that honours Idempotency-Key."
 * ```
 */
export function resendAdvice(key: CreationKey, thing: string): string {
  const again = `create again with { idempotencyKey: '${key.idempotencyKey}' } to get the same ${thing}`
  if (key.honoured) return `It was sent with Idempotency-Key '${key.idempotencyKey}', which the gateway honours (idempotentCreate): ${again}; sending again with the same key is safe.`
  if (key.chosen) return `It was sent with Idempotency-Key '${key.idempotencyKey}': ${again}; with the same key, sending again is safe on a gateway that honours Idempotency-Key.`
  return (
    `Sending it again may create a second ${thing}. On a gateway that honours Idempotency-Key, idempotentCreate: true on the client ` +
    `(rxgate then sends such a creation again itself, with the same key) or an explicit idempotencyKey makes sending again safe; ` +
    `this one went with '${key.idempotencyKey}', so ${again}.`
  )
}
