import { map, pipe, type OperatorFunction } from 'rxjs'
import * as v from 'valibot'
import { ValidationError } from '../errors/ValidationError.js'
import { toIssues } from '../validation/check.js'
import type { Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'
import { outputText } from './outputText.js'

/**
 * The structured output of a response, typed: the final text (as
 * `outputText()` gives it) parsed as JSON and validated with `schema`, the
 * same valibot schema the request's `text.format` was made from (see
 * `jsonSchemaFormat`). Emits the schema's output once, when the source
 * completes.
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
    map((text) => parseJson(schema, text)),
  )
}

function parseJson<S extends v.GenericSchema<unknown, unknown>>(schema: S, text: string): v.InferOutput<S> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    throw new ValidationError('structured output', [{ path: '', message: `is not JSON (${why})` }], text)
  }
  const result = v.safeParse(schema, json)
  if (!result.success) throw new ValidationError('structured output', toIssues(result.issues), text)
  return result.output
}
