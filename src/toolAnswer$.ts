import { defaultIfEmpty, from, isObservable, Observable, of, takeLast, type Subscription } from 'rxjs'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { ToolCallError } from './errors/ToolCallError.js'
import { ValidationError } from './errors/ValidationError.js'
import type { CollectedCall } from './operators/toolCalls.js'
import { namedIssues, type StandardResult, type StandardSchemaV1 } from './tools/standardSchema.js'
import type { ToolHandler } from './tools/types.js'
import { stringifyFinite } from './validation/finite.js'

export type { ToolContext, ToolHandler, ToolHandlers } from './tools/types.js'

/**
 * Runs one handler for one call and emits its output as the text to send
 * back, then completes. With `parameters`, the arguments are validated
 * first and the handler gets the schema's output; arguments that are not
 * JSON or break the schema end in `ToolCallError` (`invalid-arguments`, a
 * `ValidationError` as `cause`) and the handler never runs. Unsubscribing
 * before the handler is done unsubscribes its Observable and aborts its
 * `signal`; whatever it throws, rejects or errors with, and an output that
 * cannot be written as JSON (one holding `NaN` or `Infinity` included, which
 * JSON would write as `null`), end in `ToolCallError` (`handler-failed`).
 *
 * @example
 * ```ts
 * answer$(() => Promise.resolve({ size: '1280*720' }), call, 1).subscribe(console.log)
 * // Output: {"size":"1280*720"}
 * ```
 */
export function answer$(handler: ToolHandler, call: CollectedCall, round: number, parameters?: StandardSchemaV1): Observable<string> {
  return new Observable<string>((subscriber) => {
    const controller = new AbortController()
    let done = false
    let running: Subscription | undefined
    const failed = (err: unknown, reason: 'handler-failed' | 'invalid-arguments' = 'handler-failed') => {
      done = true
      subscriber.error(new ToolCallError(reason, call, err))
    }
    const run = (args: unknown) => {
      let result: unknown
      try {
        result = handler(args, { ...call, arguments: args, round, signal: controller.signal })
      } catch (err) {
        return failed(err)
      }
      const output$: Observable<unknown> = isObservable(result)
        ? result.pipe(takeLast(1), defaultIfEmpty(undefined))
        : typeof (result as PromiseLike<unknown> | null)?.then === 'function'
          ? from(result as PromiseLike<unknown>)
          : of(result)
      running = output$.subscribe({
        next: (value) => {
          let text: string
          try {
            text = outputText(value)
          } catch (err) {
            return failed(err)
          }
          done = true
          subscriber.next(text)
          subscriber.complete()
        },
        error: (err) => failed(err),
      })
    }
    const checked = (result: StandardResult<unknown>) => {
      if (result.issues) {
        return failed(new ValidationError(`arguments of ${JSON.stringify(call.name)}`, namedIssues(result.issues), call.arguments), 'invalid-arguments')
      }
      run(result.value)
    }
    if (call.argumentsError) failed(call.argumentsError, 'invalid-arguments')
    else if (!parameters) run(call.arguments)
    else {
      let result: StandardResult<unknown> | Promise<StandardResult<unknown>>
      try {
        result = parameters['~standard'].validate(call.arguments)
      } catch (err) {
        return failed(err, 'invalid-arguments')
      }
      if (result instanceof Promise) result.then((r) => subscriber.closed || checked(r), (err) => subscriber.closed || failed(err, 'invalid-arguments'))
      else checked(result)
    }
    return () => {
      running?.unsubscribe()
      // Only a handler still at work is told to stop.
      if (!done && running) controller.abort()
    }
  })
}

/** The text sent back for a handler's value: a string as it is, anything else as JSON, a NaN refused (it would reach the model as null). */
function outputText(value: unknown): string {
  if (typeof value === 'string') return value
  const { text, issues } = stringifyFinite(value ?? null)
  if (issues.length > 0) throw new InvalidRequestError(issues, 'tool output')
  return text ?? 'null'
}
