import { Observable, type OperatorFunction } from 'rxjs'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { ResponseRefusedError } from '../errors/ResponseRefusedError.js'
import type { Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'
import { responseRefusal } from './refusal.js'

/** Options of {@link outputText}. */
export interface OutputTextOptions {
  /**
   * Which responses of a stream that holds several (a tool loop's rounds):
   * `'last'` (default), the answer; `'all'`, each response's text joined
   * with a blank line, the whole conversation.
   *
   * @defaultValue `'last'`
   */
  readonly responses?: 'last' | 'all'
}

/**
 * The final text of a response, emitted once when the source completes.
 * From a stream it is exactly the streamed text deltas joined (or the text
 * of the final Response if the stream carried no deltas); from Response
 * values it is the text of the last one. A stream of several responses (a
 * `runTools$` loop, each round starting with `response.created`) gives the
 * last one's text: what a model writes before calling a tool is not the
 * answer. `{ responses: 'all' }` joins every response's text.
 *
 * A refusal is not passed off as empty text: when the response holds no
 * text but a refusal (refusal deltas, `response.refusal.done`, or refusal
 * parts in the final Response), it ends in `ResponseRefusedError` carrying
 * the refusal and the response id. Text beside a refusal wins. Read the
 * refusal itself, without an error, with `refusal()`.
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', input: 'Say hi', stream: true }).pipe(outputText())
 * // Output: 'Hi there!'
 * ```
 */
export function outputText(options: OutputTextOptions = {}): OperatorFunction<ResponseStreamEvent | Response, string> {
  const all = options?.responses === 'all'
  if (options?.responses !== undefined && !all && options.responses !== 'last') {
    throw new InvalidRequestError([{ path: 'responses', message: `must be 'last' or 'all' (got ${JSON.stringify(options.responses)})` }], 'outputText options')
  }
  return (source) =>
    new Observable<string>((subscriber) => {
      const earlier: string[] = [] // with `all`: the text of each response before this one
      let text = ''
      let deltas = 0
      let last: Response | undefined
      let refused = ''
      const finalText = () => (deltas > 0 || !last ? text : responseText(last))
      return source.subscribe({
        next: (value) => {
          // Deltas are tested first: a stream is mostly deltas.
          if ((value as { type?: unknown }).type === 'response.output_text.delta') {
            text += (value as { delta: string }).delta
            deltas++
          } else if (isResponse(value)) last = value
          else if (value.type === 'response.created') {
            // A new response begins (the next round of a tool loop): the answer is its text.
            if (last || deltas > 0) earlier.push(finalText())
            text = ''
            deltas = 0
            refused = ''
            last = value.response
          } else if (value.type === 'response.refusal.delta') refused += value.delta
          else if (value.type === 'response.refusal.done') refused ||= value.refusal
          else if (isResponse(value.response)) last = value.response
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          const final = finalText()
          const why = final === '' ? refused || (last ? responseRefusal(last) : '') : ''
          if (why) return subscriber.error(new ResponseRefusedError(why, last?.id))
          subscriber.next(all ? [...earlier, final].filter((t) => t !== '').join('\n\n') : final)
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
