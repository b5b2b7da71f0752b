/** How far down a cause chain is looked: fetch wraps undici's error in a TypeError, which may wrap the socket's. */
const MAX_DEPTH = 4

/**
 * An error and its causes, outermost first, at most 4 deep.
 *
 * @example
 * ```ts
 * [...causes(new TypeError('fetch failed', { cause: socketError }))] // [the TypeError, socketError]
 * ```
 */
export function* causes(error: unknown): Generator<unknown> {
  for (let e: unknown = error, depth = 0; e && depth < MAX_DEPTH; e = (e as { cause?: unknown }).cause, depth++) yield e
}

/**
 * The first string `code` along the cause chain (`ECONNREFUSED`,
 * `UND_ERR_SOCKET`, …), or undefined.
 *
 * @example
 * ```ts
 * errorCode(new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) })) // 'ECONNREFUSED'
 * ```
 */
export function errorCode(error: unknown): string | undefined {
  for (const e of causes(error)) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return undefined
}
