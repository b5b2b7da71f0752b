import type { Dispatcher } from 'undici'

/** A handler written for undici's current API. */
export type CurrentHandler = Required<Pick<Dispatcher.DispatchHandler, 'onRequestStart' | 'onResponseStart' | 'onResponseData' | 'onResponseEnd' | 'onResponseError'>>

/**
 * `handler`, for a dispatcher that may be of undici 6: the current hooks are
 * passed on as they are (undici 7 and later call only those when a handler
 * has them), and undici 6's hooks (`onConnect`, `onHeaders`, `onData`,
 * `onComplete`, `onError`, deprecated since undici 7) are mapped onto them
 * as undici 7 maps them itself: one controller per connection, pausing by
 * the answer to each callback, headers as an object.
 *
 * Needed because Node 20 and 22 ship undici 6: the global dispatcher their
 * own `fetch` installs is of that version, and the relay sends through the
 * global dispatcher, as `fetch` would. A dispatcher of the library's own
 * undici gets `handler` itself.
 *
 * @example
 * ```ts
 * dispatcher.dispatch(options, dispatcher instanceof Dispatcher ? handler : forOlderDispatchers(handler))
 * ```
 */
export function forOlderDispatchers(handler: CurrentHandler): Dispatcher.DispatchHandler {
  return new EitherApi(handler)
}

class EitherApi implements Dispatcher.DispatchHandler {
  // Replaced at each connection; this one stands for a request failed before it had any.
  private controller = new OlderController(undefined)

  constructor(private readonly handler: CurrentHandler) {}

  // The current API, passed on.

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.handler.onRequestStart(controller, context)
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>, message?: string): void {
    this.handler.onResponseStart(controller, status, headers, message)
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.handler.onResponseData(controller, chunk)
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    this.handler.onResponseEnd(controller, trailers)
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.handler.onResponseError(controller, error)
  }

  // undici 6's API, mapped onto the current one.

  onConnect(abort: (reason?: Error) => void): void {
    this.controller = new OlderController(abort)
    this.handler.onRequestStart(this.controller, {})
  }

  onHeaders(status: number, raw: readonly RawHeader[], resume: () => void, message: string): boolean {
    this.controller.resumeSocket = resume
    this.handler.onResponseStart(this.controller, status, headersOf(raw), message)
    return !this.controller.paused
  }

  onData(chunk: Buffer): boolean {
    this.handler.onResponseData(this.controller, chunk)
    return !this.controller.paused
  }

  onComplete(): void {
    this.handler.onResponseEnd(this.controller, {})
  }

  onError(error: Error): void {
    this.handler.onResponseError(this.controller, error)
  }
}

/** The controller of one connection of an undici 6 dispatcher: pausing is answered to undici's next callback, resuming calls its `resume`. */
class OlderController implements Dispatcher.DispatchController {
  aborted = false
  paused = false
  reason: Error | null = null
  resumeSocket: (() => void) | undefined

  constructor(private readonly abortRequest: ((reason?: Error) => void) | undefined) {}

  abort(reason: Error): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    this.abortRequest?.(reason)
  }

  pause(): void {
    this.paused = true
  }

  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.resumeSocket?.()
  }
}

/** One name or value of undici 6's raw header list: a dispatcher composed with interceptors may give a repeated header's values as a list. */
type RawHeader = Buffer | string | readonly (Buffer | string)[]

// A string's toString ignores the encoding: it is returned as it is.
const latin1 = (part: RawHeader): string | string[] => (Array.isArray(part) ? part.map((one: Buffer | string) => one.toString('latin1')) : (part as Buffer | string).toString('latin1'))

/** undici 6's raw header list as the current API gives headers: an object, a repeated header's values in a list (a last name without a value is dropped). */
function headersOf(raw: readonly RawHeader[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = Object.create(null)
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(latin1(raw[i] as RawHeader)).toLowerCase()
    const value = latin1(raw[i + 1] as RawHeader)
    const before = headers[name]
    headers[name] = before === undefined ? value : [before, value].flat()
  }
  return headers
}
