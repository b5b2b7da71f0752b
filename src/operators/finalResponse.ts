import { Observable, type OperatorFunction } from 'rxjs'
import { isTerminalStatus, type Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'
import { isResponse } from './outputText.js'

/**
 * The finished Response: from a stream, the `response` of its
 * `response.completed` or `response.incomplete` event; from Response
 * values (a background response), the first one with a final status, at
 * once. A stream of several responses (a `runTools$` loop) gives the last
 * one, the loop's answer, when the stream completes (never cutting the
 * loop short); nothing when no response finished.
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', input: 'hi', stream: true }).pipe(finalResponse())
 *   .subscribe((r) => console.log(r.status, r.usage?.total_tokens))
 * // Output: completed 12
 * ```
 */
export function finalResponse(): OperatorFunction<ResponseStreamEvent | Response, Response> {
  return (source) =>
    new Observable<Response>((subscriber) => {
      let final: Response | undefined
      return source.subscribe({
        next: (value) => {
          if (isResponse(value)) {
            // A snapshot with a final status never changes: no need to wait for more.
            if (isTerminalStatus(value.status)) {
              subscriber.next(value)
              subscriber.complete()
            }
          } else if (value.type === 'response.completed' || value.type === 'response.incomplete') final = value.response
          // The next round of a tool loop: its own end is the answer.
          else if (value.type === 'response.created') final = undefined
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          if (final) subscriber.next(final)
          subscriber.complete()
        },
      })
    })
}
