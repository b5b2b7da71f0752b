import { Allow, MalformedJSON, parse } from 'partial-json'
import * as v from 'valibot'
import { ValidationError } from '../errors/ValidationError.js'
import { toIssues } from '../validation/check.js'

/**
 * What may be shown unfinished: a string being written (a UI shows it grow),
 * an object or array being filled, and `t`/`f`/`n` (only `true`, `false`,
 * `null` start so). Never a number: `12` may be the start of `123`, and a UI
 * must not show a wrong number; a number appears once a `,`, `]` or `}`
 * ends it. NaN and Infinity are not JSON.
 */
const SHOWN = Allow.STR | Allow.OBJ | Allow.ARR | Allow.BOOL | Allow.NULL

/** What a prefix of structured output reads as so far. */
export type PartialRead =
  /** The JSON written so far: only objects and arrays (the root of structured output), never a bare value. */
  | { readonly kind: 'value'; readonly value: object }
  /** Nothing to show yet (no text, or a bare number or word so far); more text may change that. */
  | { readonly kind: 'pending' }
  /** Not the start of any JSON: no more text can make it JSON, so there is no use reading it again. */
  | { readonly kind: 'malformed' }

/**
 * Reads the text of structured output as far as it has been written, with
 * `partial-json`: a string cut mid-way (even mid-escape, `\u00` of `\u00e9`)
 * is shown up to its last whole character, a key cut mid-way is left out, a
 * number cut mid-way is left out.
 *
 * @example
 * ```ts
 * readPartialJson('{"city":"Par') // { kind: 'value', value: { city: 'Par' } }
 * readPartialJson('{"celsius":2') // { kind: 'value', value: {} }
 * readPartialJson('Let me check') // { kind: 'malformed' }
 * ```
 */
export function readPartialJson(text: string): PartialRead {
  if (text.trim() === '') return { kind: 'pending' }
  let value: unknown
  try {
    value = parse(text, SHOWN)
  } catch (err) {
    return err instanceof MalformedJSON ? { kind: 'malformed' } : { kind: 'pending' }
  }
  // A bare value may be prose that starts like JSON ("1 thing", "true story"), or a number still growing.
  return value !== null && typeof value === 'object' ? { kind: 'value', value } : { kind: 'pending' }
}

/**
 * The final text of structured output parsed as JSON and validated with
 * `schema`. Text that is not JSON, or JSON the schema refuses, throws
 * `ValidationError` (`issues` names each broken field, `payload` is the
 * text), as `parsedOutput()` does.
 *
 * @example
 * ```ts
 * parseStructured(v.object({ city: v.string() }), '{"city":"Paris"}') // { city: 'Paris' }
 * ```
 */
export function parseStructured<S extends v.GenericSchema<unknown, unknown>>(schema: S, text: string): v.InferOutput<S> {
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
