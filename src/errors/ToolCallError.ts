import { GatewayError, isNamed } from './GatewayError.js'

/** Why a tool call could not be answered. */
export type ToolCallFailure = 'unknown-tool' | 'invalid-arguments' | 'handler-failed'

/**
 * A function call the model made in a tool loop could not be answered, and
 * the loop stopped (the request and every other running handler were
 * cancelled). `reason` says why:
 * - `unknown-tool`: no handler is registered under `toolName` (the model
 *   named a tool that was not offered, or the handlers miss one).
 * - `invalid-arguments`: the arguments were not JSON or broke the tool's
 *   schema; a `ValidationError` naming each broken field is the `cause`.
 * - `handler-failed`: the handler threw, rejected or errored; its error is
 *   the `cause`.
 *
 * By default `runTools$` sends these back to the model as the call's output
 * and goes on; the loop ends in this error with `onToolError: 'throw'`, or
 * after more than `maxToolErrors` failed calls in a row.
 *
 * @example
 * ```ts
 * runTools$(client, body, { get_weather: () => { throw new Error('offline') } }).subscribe({
 *   error: (err) => isToolCallError(err) && console.log(err.reason, err.toolName, String(err.cause)),
 * })
 * // Output: handler-failed get_weather Error: offline
 * ```
 */
export class ToolCallError extends GatewayError {
  /** Always `'ToolCallError'`; test it with {@link isToolCallError}. */
  override name = 'ToolCallError' as const
  /** Why the call could not be answered. */
  readonly reason: ToolCallFailure
  /** The tool the model called. */
  readonly toolName: string
  /** The call's `call_id`. */
  readonly callId: string

  constructor(reason: ToolCallFailure, call: { readonly name: string; readonly callId: string }, cause?: unknown) {
    super(
      reason === 'unknown-tool'
        ? `The model called ${JSON.stringify(call.name)} (call ${call.callId}), which has no handler: add one, or do not offer the tool.`
        : reason === 'invalid-arguments'
          ? `The model called ${JSON.stringify(call.name)} (call ${call.callId}) with invalid arguments: ${describe(cause)}`
          : `The handler of ${JSON.stringify(call.name)} failed on call ${call.callId}: ${describe(cause)}`,
      cause === undefined ? undefined : { cause },
    )
    this.reason = reason
    this.toolName = call.name
    this.callId = call.callId
  }
}

function describe(cause: unknown): string {
  try {
    return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)
  } catch {
    return 'it threw a value that cannot be printed'
  }
}

/** Whether `value` is a {@link ToolCallError}, from any copy of rxgate. */
export const isToolCallError = isNamed<ToolCallError>('ToolCallError')
