import { Observable, type OperatorFunction } from 'rxjs'
import type { Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/**
 * The final text of a response, emitted once when the source completes.
 * From a stream it is exactly the streamed text deltas joined (or the text
 * of the final Response if the stream carried no deltas); from Response
 * values it is the text of the last one.
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', input: 'Say hi', stream: true }).pipe(outputText())
 * // Output: 'Hi there!'
 * ```
 */
export function outputText(): OperatorFunction<ResponseStreamEvent | Response, string> {
  return (source) =>
    new Observable<string>((subscriber) => {
      let text = ''
      let deltas = 0
      let last: Response | undefined
      return source.subscribe({
        next: (value) => {
          // Deltas are tested first: a stream is mostly deltas.
          if ((value as { type?: unknown }).type === 'response.output_text.delta') {
            text += (value as { delta: string }).delta
            deltas++
          } else if (isResponse(value)) last = value
          else if (isResponse(value.response)) last = value.response
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          subscriber.next(deltas > 0 || !last ? text : responseText(last))
          subscriber.complete()
        },
      })
    })
}

/**
 * The concatenated text of a Response: its `output_text` when it holds
 * text, otherwise the `output_text` parts of its message items joined (some
 * compatible servers send `"output_text": ""` beside real message text).
 */
export function responseText(response: Response): string {
  if (response.output_text) return response.output_text
  let text = ''
  for (const item of response.output ?? []) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue
    for (const part of item.content as { type: string; text?: unknown }[]) {
      if (part.type === 'output_text' && typeof part.text === 'string') text += part.text
    }
  }
  return text
}

export function isResponse(value: unknown): value is Response {
  return (value as { object?: unknown } | null)?.object === 'response'
}
