import { filter, map, pipe, take, type OperatorFunction } from 'rxjs'
import { isTerminalStatus, type Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'
import { isResponse } from './outputText.js'

/**
 * The finished Response: from a stream, the `response` of its
 * `response.completed` or `response.incomplete` event; from Response values
 * (a background response), the first one with a final status. Emits it, then
 * completes.
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', input: 'hi', stream: true }).pipe(finalResponse())
 *   .subscribe((r) => console.log(r.status, r.usage?.total_tokens))
 * // Output: completed 12
 * ```
 */
export function finalResponse(): OperatorFunction<ResponseStreamEvent | Response, Response> {
  return pipe(
    map((value): Response | undefined => {
      if (isResponse(value)) return isTerminalStatus(value.status) ? value : undefined
      return value.type === 'response.completed' || value.type === 'response.incomplete' ? value.response : undefined
    }),
    filter((response): response is Response => response !== undefined),
    take(1),
  )
}
