import type { Response } from '../validation/response.js'

/**
 * `gen_ai.response.finish_reasons` of a finished response, in the words of
 * the GenAI conventions' output messages (`stop`, `length`,
 * `content_filter`, `tool_call`, `error`), read from its status:
 *
 * | status | reasons |
 * |---|---|
 * | `completed` | `['tool_call']` when it asks for a function call, else `['stop']` |
 * | `incomplete` | `max_output_tokens` → `['length']`, `content_filter` → `['content_filter']`, another reason as given, none → `['incomplete']` |
 * | `failed` | `['error']` |
 * | `cancelled` | `['cancelled']` |
 *
 * A response still running (`queued`, `in_progress`) has none: `undefined`.
 *
 * @example
 * ```ts
 * finishReasons({ ...response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })
 * // ['length']
 * ```
 */
export function finishReasons(response: Pick<Response, 'status' | 'output' | 'incomplete_details'>): string[] | undefined {
  switch (response.status) {
    case 'completed':
      return [callsTools(response) ? 'tool_call' : 'stop']
    case 'incomplete': {
      const reason = response.incomplete_details?.reason
      return [reason === 'max_output_tokens' ? 'length' : (reason ?? 'incomplete')]
    }
    case 'failed':
      return ['error']
    case 'cancelled':
      return ['cancelled']
    default:
      return undefined
  }
}

/** A completed response that asks for a function (or custom tool) call: its turn ends there, waiting for the answer. */
function callsTools(response: Pick<Response, 'output'>): boolean {
  return (response.output ?? []).some((item) => item.type === 'function_call' || item.type === 'custom_tool_call')
}
