import { Observable, type OperatorFunction } from 'rxjs'
import type * as v from 'valibot'
import { ResponseRefusedError } from '../errors/ResponseRefusedError.js'
import type { Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'
import { isResponse, responseText } from './outputText.js'
import { responseRefusal } from './refusal.js'
import { parseStructured, readPartialJson } from './structuredJson.js'

/** The text is read again once it has grown by 1/GROWTH of its length (see {@link partialOutput}). */
const GROWTH = 256

/**
 * `T` with every property optional, at every depth: structured output as far
 * as the model has written it. An array holds the items begun so far, the
 * last one perhaps partial itself.
 *
 * @example
 * ```ts
 * const draft: DeepPartial<{ title: string; tags: { name: string }[] }> = { tags: [{}] }
 * ```
 */
export type DeepPartial<T> = T extends readonly (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T

/**
 * What {@link partialOutput} emits: the JSON written so far (`done: false`,
 * shaped like the schema's input, unvalidated), then the validated value
 * (`done: true`, the schema's output).
 *
 * @example
 * ```ts
 * const show = (out: PartialOutput<typeof Book>) => (out.done ? out.value.title : out.partial.title ?? '…')
 * ```
 */
export type PartialOutput<S extends v.GenericSchema<unknown, unknown>> =
  | {
      /** The model is still writing. */
      readonly done: false
      /** The JSON written so far, unvalidated: any field may still be missing, a string cut short. */
      readonly partial: DeepPartial<v.InferInput<S>>
    }
  | {
      /** The answer is complete. */
      readonly done: true
      /** The whole answer, validated by the schema. */
      readonly value: v.InferOutput<S>
    }

/**
 * Structured output while the model writes it: on each
 * `response.output_text.delta` the text so far is read as partial JSON, and
 * `{ done: false, partial }` is emitted when it reads differently from the
 * last partial (never the same partial twice in a row). When the source
 * completes, `{ done: true, value }`: the text parsed and validated with
 * `schema` exactly as `parsedOutput(schema)` does.
 *
 * A partial shows a string still being written (up to its last whole
 * character) but never a number still being written: `12` may become `123`,
 * so a number appears once the JSON moves past it. A key being written is
 * left out. Partials are objects or arrays only; text that is not the start
 * of JSON gives none, and is not read again. Partials are not validated:
 * treat every field as possibly missing.
 *
 * Reading the text again on every delta would cost work growing with the
 * square of its length; instead the text is read again once it has grown by
 * 1/256 of its length since the last reading: on every delta at first, every
 * 16 characters at 4 kB, every 400 at 100 kB. The work per character written
 * stays constant however long the output, and the final value always comes.
 *
 * A stream of several responses (one per round of a tool loop, each starting
 * with `response.created`) is read as its last response: the text starts
 * afresh at each `response.created`. A source of Response values (not
 * streamed) gives only the final value.
 *
 * Text that is not JSON, or JSON that breaks the schema, ends in
 * `ValidationError`; a refusal ends in `ResponseRefusedError`. Source errors
 * pass through; unsubscribing unsubscribes from the source.
 *
 * @example
 * ```ts
 * const Book = v.object({ title: v.string(), year: v.pipe(v.number(), v.minValue(1450)) })
 * responses$(client, { model: 'gpt-4.1-mini', input: 'A novel about the sea', text: { format: jsonSchemaFormat(Book, 'book') }, stream: true })
 *   .pipe(partialOutput(Book))
 *   .subscribe((out) => console.log(out.done ? `done: ${out.value.year}` : JSON.stringify(out.partial)))
 * // Output (the simulator):
 * // {}
 * // {"title":"the se"}
 * // {"title":"the sea"}
 * // {"title":"the sea","year":1450}
 * // done: 1450
 * ```
 */
export function partialOutput<S extends v.GenericSchema<unknown, unknown>>(schema: S): OperatorFunction<ResponseStreamEvent | Response, PartialOutput<S>> {
  return (source) =>
    new Observable<PartialOutput<S>>((subscriber) => {
      let text = ''
      let deltas = 0
      let refused = ''
      let last: Response | undefined
      // The JSON of the last partial emitted: one string compare tells a change.
      let shown: string | undefined
      // A text that is not the start of JSON never becomes JSON: stop re-reading it.
      let malformed = false
      // The length of the text at its last reading.
      let readAt = 0
      const show = () => {
        const read = readPartialJson(text)
        if (read.kind === 'malformed') malformed = true
        if (read.kind !== 'value') return
        const json = JSON.stringify(read.value)
        if (json === shown) return
        shown = json
        subscriber.next({ done: false, partial: read.value as DeepPartial<v.InferInput<S>> })
      }
      return source.subscribe({
        next: (value) => {
          // Deltas are tested first: a stream is mostly deltas.
          if ((value as { type?: unknown }).type === 'response.output_text.delta') {
            const delta = (value as { delta: string }).delta
            text += delta
            deltas++
            if (!malformed && text.length - readAt >= Math.max(1, text.length / GROWTH)) {
              readAt = text.length
              show()
            }
          } else if (isResponse(value)) last = value
          else if (value.type === 'response.created') {
            // A new round: what came before belongs to a response that is not the answer.
            text = ''
            deltas = 0
            refused = ''
            shown = undefined
            malformed = false
            readAt = 0
            last = isResponse(value.response) ? value.response : undefined
          } else if (value.type === 'response.refusal.delta') refused += value.delta
          else if (value.type === 'response.refusal.done') refused ||= value.refusal
          else if (isResponse(value.response)) last = value.response
        },
        error: (err) => subscriber.error(err),
        complete: () => {
          // The final text as outputText() reads it: the deltas, or else the last Response's text.
          const final = deltas > 0 || !last ? text : responseText(last)
          const why = final === '' ? refused || (last ? responseRefusal(last) : '') : ''
          if (why) return subscriber.error(new ResponseRefusedError(why, last?.id))
          let parsed: v.InferOutput<S>
          try {
            parsed = parseStructured(schema, final)
          } catch (err) {
            return subscriber.error(err)
          }
          subscriber.next({ done: true, value: parsed })
          subscriber.complete()
        },
      })
    })
}
