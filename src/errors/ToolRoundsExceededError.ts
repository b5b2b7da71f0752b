import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A tool loop reached its `maxRounds` responses and the last one still asked
 * for tools, so the loop stopped instead of running them: a guard against a
 * model that calls tools forever. `responseId` is that last response (continue
 * it yourself with `previous_response_id`), `pendingCalls` the names of the
 * calls left unanswered.
 *
 * @example
 * ```ts
 * runTools$(client, body, handlers, { maxRounds: 1 }).subscribe({
 *   error: (err) => isToolRoundsExceededError(err) && console.log(err.maxRounds, err.pendingCalls),
 * })
 * // Output: 1 [ 'get_weather' ]
 * ```
 */
export class ToolRoundsExceededError extends GatewayError {
  /** Always `'ToolRoundsExceededError'`; test it with {@link isToolRoundsExceededError}. */
  override name = 'ToolRoundsExceededError' as const
  /** The loop's `maxRounds`, which was reached. */
  readonly maxRounds: number
  /** The last response, which still asked for tools: continue it with `previous_response_id`. */
  readonly responseId: string | undefined
  /** The names of the calls left unanswered. */
  readonly pendingCalls: readonly string[]

  constructor(maxRounds: number, responseId: string | undefined, pendingCalls: readonly string[]) {
    super(
      `The model still called tools (${pendingCalls.join(', ')}) after ${maxRounds} responses` +
        `${responseId ? `, the last ${responseId}` : ''}; the loop stopped. Raise maxRounds if the task needs more rounds.`,
    )
    this.maxRounds = maxRounds
    this.responseId = responseId
    this.pendingCalls = pendingCalls
  }
}

/** Whether `value` is a {@link ToolRoundsExceededError}, from any copy of rxgate. */
export const isToolRoundsExceededError = isNamed<ToolRoundsExceededError>('ToolRoundsExceededError')
