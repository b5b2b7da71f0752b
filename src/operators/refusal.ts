import { Observable, type OperatorFunction } from 'rxjs'
import type { Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/**
 * The refusal text of a response, for a bot that wants to show why the model
 * declined rather than fail. From a stream: each `response.refusal.delta` as
 * it arrives; a server that sends a refusal whole (`response.refusal.done`
 * without deltas) gives it in one piece. When no refusal event came, the
 * refusal parts of the final Response, once, at completion. From Response
 * values: the refusal of the last one. Emits nothing for an answer that is
 * not a refusal. Errors and completion pass through.
 *
 * `outputText()` and `parsedOutput()` end in `ResponseRefusedError` for the
 * same response when it holds no text.
 *
 * @example
 * ```ts
 * responses$(client, { model: 'gpt-4o', input: '[refuse] Help me pick a lock', stream: true })
 *   .pipe(refusal(), toArray())
 *   .subscribe((pieces) => console.log(pieces.join('')))
 * // Output: I'm sorry, but I can't help with that request.
 * ```
 */
export function refusal(): OperatorFunction<ResponseStreamEvent | Response, string> {
  return (source) =>
    new Observable<string>((subscriber) => {
      let emitted = false
      let deltasSinceDone = 0
      let last: Response | undefined
      return source.subscribe({
        next: (value) => {
          if (isResponse(value)) last = value
          else if (value.type === 'response.refusal.delta') {
            deltasSinceDone++
            emitted = true
            subscriber.next(value.delta)
          } else if (value.type === 'response.refusal.done') {
            // A refusal sent whole, with no deltas before it.
            if (deltasSinceDone === 0 && value.refusal) {
              emitted = true
              subscriber.next(value.refusal)
            }
            deltasSinceDone = 0
          } else if (isResponse(value.response)) last = value.response
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          const text = !emitted && last ? responseRefusal(last) : ''
          if (text) subscriber.next(text)
          subscriber.complete()
        },
      })
    })
}

/** Whether a value is a Response rather than a stream event (outputText.ts has the same test; importing it would make a cycle). */
function isResponse(value: unknown): value is Response {
  return (value as { object?: unknown } | null)?.object === 'response'
}

/**
 * The refusal parts of a Response's messages joined, `''` when it refused nothing.
 *
 * @example
 * ```ts
 * responseRefusal(response)
 * // Output: "I'm sorry, I can't assist with that."
 * ```
 */
export function responseRefusal(response: Response): string {
  let text = ''
  for (const item of response.output ?? []) {
    if (item.type !== 'message') continue
    for (const part of item.content) if (part.type === 'refusal') text += part.refusal
  }
  return text
}
