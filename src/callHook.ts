import { config } from 'rxjs'

/**
 * Calls a user's hook (or telemetry method) with `event`. A hook that throws,
 * or returns a promise that rejects, never breaks the call it observes: its
 * error is reported on a later turn by {@link reportLater}. A promise it
 * returns is not awaited: an `async` hook holds nothing up.
 *
 * @example
 * ```ts
 * callHook(hooks.onRequest, request) // returns at once, whatever the hook does
 * ```
 */
export function callHook<E>(hook: ((event: E) => unknown) | undefined, event: E): void {
  if (!hook) return
  try {
    const result: unknown = hook(event)
    // Read once, in the try: a hostile `then` getter is reported like any throw.
    const then = typeof result === 'object' && result !== null ? (result as { then?: unknown }).then : undefined
    if (typeof then === 'function') then.call(result, undefined, reportLater)
  } catch (error) {
    reportLater(error)
  }
}

/**
 * Reports an observer's error the way RxJS reports its own unhandled ones:
 * on a later turn, to `config.onUnhandledError` when the app set one, else
 * thrown as an uncaught error (in Node that ends the process unless an
 * `uncaughtException` handler takes it).
 *
 * @example
 * ```ts
 * try { hook(event) } catch (error) { reportLater(error) }
 * ```
 */
export function reportLater(error: unknown): void {
  setTimeout(() => {
    const { onUnhandledError } = config
    if (onUnhandledError) onUnhandledError(error)
    else throw error
  })
}
