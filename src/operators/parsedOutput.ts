import { map, pipe, type OperatorFunction } from 'rxjs'
import type * as v from 'valibot'
import type { Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'
import { outputText } from './outputText.js'
import { parseStructured } from './structuredJson.js'

/**
 * The structured output of a response, typed: the final text (as
 * `outputText()` gives it) parsed as JSON and validated with `schema`, the
 * same valibot schema the request's `text.format` was made from (see
 * `jsonSchemaFormat`). Emits the schema's output once, when the source
 * completes; of a `runTools$` loop, the last response's (the answer after
 * the tool rounds).
 *
 * Text that is not JSON, or JSON that breaks the schema (a model without
 * strict mode, a response cut short by `max_output_tokens`), ends in
 * `ValidationError`: `issues` names each broken field, `payload` is the text.
 * A refusal ends in `ResponseRefusedError`, as with `outputText()`.
 *
 * @example
 * ```ts
 * const Book = v.object({ title: v.string(), year: v.pipe(v.number(), v.integer(), v.minValue(1450)) })
 * responses$(client, { model: 'gpt-4.1-mini', input: 'Recommend a novel about the sea', text: { format: jsonSchemaFormat(Book, 'book') } })
 *   .pipe(parsedOutput(Book))
 *   .subscribe((book) => console.log(book.title, book.year))
 * // Output (the simulator): the sea 1450
 * ```
 */
export function parsedOutput<S extends v.GenericSchema<unknown, unknown>>(schema: S): OperatorFunction<ResponseStreamEvent | Response, v.InferOutput<S>> {
  return pipe(
    outputText(),
    map((text) => parseStructured(schema, text)),
  )
}
