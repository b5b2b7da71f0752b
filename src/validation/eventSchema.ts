import * as v from 'valibot'

// Builders shared by the stream event schemas, so each event is declared in
// one line of its own fields. Every event is a loose object: fields this
// version does not model (`obfuscation` on new deltas, `copilot_usage`, …)
// pass through untouched.

/** `sequence_number`: optional, as streams recorded before mid-2025 have none. */
export const seq = v.optional(v.number())
export const int = v.pipe(v.number(), v.integer())
/** Where an event's item is: its id and its index in the response's `output`. */
export const at = { item_id: v.string(), output_index: int }
/** Where an event's content part is. */
export const inPart = { ...at, content_index: int }

/**
 * The schema of one event type: its `type` literal, an optional
 * `sequence_number`, and its own fields.
 *
 * @example
 * ```ts
 * const Searching = event('response.web_search_call.searching', at)
 * v.is(Searching, { type: 'response.web_search_call.searching', item_id: 'ws_1', output_index: 0 })
 * // Output: true
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function event<T extends string, E extends v.ObjectEntries>(type: T, entries: E) {
  return v.looseObject({ type: v.literal(type), sequence_number: seq, ...entries })
}

/** An event schema as `byType` reads it: a loose object whose `type` is a literal. */
type EventSchema = v.GenericSchema<unknown, unknown> & { readonly entries: { readonly type: v.LiteralSchema<string, undefined> } }

/** The schemas keyed by their event type. */
export type ByType<S extends readonly EventSchema[]> = { readonly [K in S[number] as K['entries']['type']['literal']]: K }

/**
 * Keys schemas by the `type` each declares, so no type string is written twice.
 *
 * @example
 * ```ts
 * const schemas = byType(event('response.audio.done', {}), event('response.audio.transcript.done', {}))
 * Object.keys(schemas)
 * // Output: ['response.audio.done', 'response.audio.transcript.done']
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function byType<const S extends readonly EventSchema[]>(...schemas: S): ByType<S> {
  return Object.fromEntries(schemas.map((schema) => [schema.entries.type.literal, schema])) as ByType<S>
}
