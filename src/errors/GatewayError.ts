import type { TaskEndpoint } from '../contract/endpoint.js'
import { preview } from './preview.js'

// A global symbol, so the guards recognise errors made by another copy of
// rxgate (its ESM, CommonJS and browser builds side by side), where
// `instanceof` cannot.
const BRAND = Symbol.for('rxgate.GatewayError')

/**
 * Base class of every error rxgate reports: catch it to handle them all, and
 * test for it with {@link isGatewayError} (which, unlike `instanceof`, works
 * across bundles).
 *
 * Messages say what was wrong and what to do. They never contain the API key,
 * and neither does anything reachable from an error (`cause`, fields,
 * `JSON.stringify`, `util.inspect`). `JSON.stringify(error)`, `String(error)`
 * and `util.inspect(error)` never throw, whatever payload an error holds.
 *
 * An error that ended the creation or the following of a media task carries
 * `taskId` (when one is known) and `endpoint`, so the task can be followed again.
 *
 * @example
 * ```ts
 * responses$(client, { model: 'm', input: 'hi' }).subscribe({
 *   error: (err) => { if (isGatewayError(err)) console.error(err.name, err.message) },
 * })
 * ```
 */
export class GatewayError extends Error {
  /**
   * The class's name, e.g. `'HttpError'`; each subclass's guard (`isHttpError`, …) tests it, which
   * works across bundles where `instanceof` does not.
   */
  override name = 'GatewayError'
  /** The media task this error concerns, when one is known. */
  declare taskId?: string
  /** Where that task lives: follow it again with `task$(client, error.endpoint, error.taskId)`. */
  declare endpoint?: TaskEndpoint

  // Error's own takes an optional message: every rxgate error has one.
  // eslint-disable-next-line @typescript-eslint/no-useless-constructor
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }

  /** Plain-object form for logs: name, message and the subclass's fields, payloads shortened. Never throws. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message }
    for (const key of Object.keys(this)) if (key !== 'name') out[key] = preview((this as Record<string, unknown>)[key])
    if (this.cause !== undefined) out.cause = preview(this.cause)
    return out
  }
}
Object.defineProperty(GatewayError.prototype, BRAND, { value: true })

/** Whether `value` is an rxgate error, from this copy of the library or another. */
export function isGatewayError(value: unknown): value is GatewayError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
}

/** Guard for one subclass by its `name`, recognised across bundles like {@link isGatewayError}. */
export function isNamed<E extends GatewayError>(name: E['name']) {
  return (value: unknown): value is E => isGatewayError(value) && value.name === name
}

/**
 * Any failure as an rxgate error: rxgate's own as they are, anything else
 * (a bug, a throwing callback) wrapped as the `cause` of a {@link GatewayError},
 * so nothing untyped leaves the library.
 */
export function asGatewayError(error: unknown): GatewayError {
  if (isGatewayError(error)) return error
  let text: string
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    text = 'an unprintable value was thrown'
  }
  return new GatewayError(`Unexpected failure: ${text}`, { cause: error })
}

/**
 * Marks the error that ends the creation or following of a task with the
 * task, and says in its message how to follow it again. Returns the error.
 */
export function tagTask(error: unknown, taskId: string, endpoint: TaskEndpoint): GatewayError {
  const tagged = asGatewayError(error)
  if (tagged.taskId !== undefined) return tagged
  tagged.taskId = taskId
  tagged.endpoint = endpoint
  // A 404 means the gateway knows no such task there: following it again cannot help.
  const unknown = (tagged as { status?: unknown }).status === 404
  const note = unknown
    ? ` (task ${taskId} at ${endpoint.name}: the gateway knows no such task; check the id and the endpoint)`
    : ` (task ${taskId} at ${endpoint.name}: it may still finish; follow it again with task$(client, endpoint, '${taskId}'))`
  const message = tagged.message + note
  if (typeof tagged.stack === 'string') tagged.stack = tagged.stack.replace(tagged.message, message)
  tagged.message = message
  return tagged
}
