/**
 * Base class of every error rxgate reports: catch it to handle them all.
 *
 * Messages say what was wrong and what to do. They never contain the API key,
 * and neither does anything reachable from an error (`cause`, fields,
 * `JSON.stringify`, `util.inspect`).
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', input: 'hi' }).subscribe({
 *   error: (err) => { if (err instanceof GatewayError) console.error(err.name, err.message) },
 * })
 * ```
 */
export class GatewayError extends Error {
  override name: string = 'GatewayError'

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }

  /** Plain-object form for logs: name, message and the subclass's own fields. */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message }
  }
}
