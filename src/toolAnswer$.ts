import { defaultIfEmpty, from, isObservable, Observable, of, takeLast } from 'rxjs'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { ToolCallError } from './errors/ToolCallError.js'
import { stringifyFinite } from './validation/finite.js'
import type { ToolCall } from './operators/toolCalls.js'

/** What a tool handler is given besides the arguments. */
export interface ToolContext extends ToolCall {
  /** The response of the loop (1 for the first) whose call this is. */
  readonly round: number
  /** Aborted when the loop is unsubscribed before the handler is done: pass it to `fetch`. */
  readonly signal: AbortSignal
}

/**
 * Answers one function call: receives the parsed arguments, returns the
 * output as a value, a Promise or an Observable (its last value). A string is
 * sent as it is, anything else as JSON.
 */
// `any`, so a handler can declare the arguments it expects ({ city }: { city: string }); validate them if the model may err.
export type ToolHandler<A = any> = (args: A, context: ToolContext) => unknown

/** Handlers by function name, as offered in the request's `tools`. */
export type ToolHandlers = Readonly<Record<string, ToolHandler>>

/**
 * Runs one handler for one call and emits its output as the text to send
 * back, then completes. Unsubscribing before the handler is done unsubscribes
 * its Observable and aborts its `signal`; whatever it throws, rejects or
 * errors with, and an output that cannot be written as JSON (one holding
 * `NaN` or `Infinity` included, which JSON would write as `null`), end in
 * `ToolCallError` (`handler-failed`).
 *
 * @example
 * ```ts
 * answer$(() => Promise.resolve({ size: '1280*720' }), call, 1).subscribe(console.log)
 * // Output: {"size":"1280*720"}
 * ```
 */
export function answer$(handler: ToolHandler, call: ToolCall, round: number): Observable<string> {
  return new Observable<string>((subscriber) => {
    const controller = new AbortController()
    let done = false
    const failed = (err: unknown) => {
      done = true
      subscriber.error(new ToolCallError('handler-failed', call, err))
    }
    let result: unknown
    try {
      result = handler(call.arguments, { ...call, round, signal: controller.signal })
    } catch (err) {
      return failed(err)
    }
    const output$: Observable<unknown> = isObservable(result)
      ? result.pipe(takeLast(1), defaultIfEmpty(undefined))
      : typeof (result as PromiseLike<unknown> | null)?.then === 'function'
        ? from(result as PromiseLike<unknown>)
        : of(result)
    const running = output$.subscribe({
      next: (value) => {
        let text: string
        try {
          if (typeof value === 'string') text = value
          else {
            // A NaN would reach the model as null: the handler's mistake, reported as one.
            const { text: json, issues } = stringifyFinite(value ?? null)
            if (issues.length > 0) return failed(new InvalidRequestError(issues, 'tool output'))
            text = json ?? 'null'
          }
        } catch (err) {
          return failed(err)
        }
        done = true
        subscriber.next(text)
        subscriber.complete()
      },
      error: failed,
    })
    return () => {
      running.unsubscribe()
      // Only a handler still at work is told to stop.
      if (!done) controller.abort()
    }
  })
}
