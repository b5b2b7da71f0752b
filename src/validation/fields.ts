import * as v from 'valibot'

// Small field builders shared by the request and option schemas, so each rule's
// wording is written once and every message names the rule and, where useful, the value.

/* @__NO_SIDE_EFFECTS__ */
export function numberIn(min: number, max: number) {
  const range = `must be from ${min} to ${max}`
  return v.pipe(
    v.number('must be a number'),
    v.minValue(min, (issue) => `${range} (got ${issue.input})`),
    v.maxValue(max, (issue) => `${range} (got ${issue.input})`),
  )
}

/* @__NO_SIDE_EFFECTS__ */
export function integerIn(min: number, max: number) {
  const range = `must be an integer from ${min} to ${max}`
  return v.pipe(
    v.number('must be a number'),
    v.integer((issue) => `${range} (got ${issue.input})`),
    v.minValue(min, (issue) => `${range} (got ${issue.input})`),
    v.maxValue(max, (issue) => `${range} (got ${issue.input})`),
  )
}

/* @__NO_SIDE_EFFECTS__ */
export function integerFrom(min: number) {
  const range = `must be an integer of at least ${min}`
  return v.pipe(
    v.number('must be a number'),
    v.integer((issue) => `${range} (got ${issue.input})`),
    v.minValue(min, (issue) => `${range} (got ${issue.input})`),
  )
}

/**
 * The length of a string in characters (Unicode code points), as the
 * interface counts them: an emoji is one character, not two UTF-16 units.
 */
export function characters(text: string): number {
  let n = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/** At most `max` characters (code points); a string no longer than `max` UTF-16 units passes at once. */
/* @__NO_SIDE_EFFECTS__ */
export function atMostCharacters(max: number) {
  return v.check<string, (issue: v.CheckIssue<string>) => string>(
    (value) => value.length <= max || characters(value) <= max,
    (issue) => `must be at most ${max} characters (got ${characters(issue.input)})`,
  )
}

/* @__NO_SIDE_EFFECTS__ */
export function textUpTo(max: number) {
  return v.pipe(v.string('must be a string'), atMostCharacters(max))
}

export const bool = /* @__PURE__ */ v.boolean('must be true or false')
export const text = /* @__PURE__ */ v.string('must be a string')

/**
 * Message for an object schema. Valibot reports a missing required key with
 * the enclosing object's message, so the path tells the two cases apart.
 */
export const objectMessage = (issue: v.BaseIssue<unknown>): string => (issue.path?.length ? 'is required' : 'must be an object')

/** Whether `value` is an object that is not an array (nor null). */
export const isPlainObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * An object that is not an array. Valibot's object and record schemas take an
 * array for an object (and copy it into one), so the check comes first.
 */
/* @__NO_SIDE_EFFECTS__ */
export function plainObject<T extends v.GenericSchema<unknown, unknown>>(schema: T, message: v.ErrorMessage<v.CustomIssue> = 'must be an object') {
  return v.pipe(v.custom<v.InferInput<T>>(isPlainObject, message), schema)
}

/** What a value is, in a message: `null`, `an array`, or its `typeof`. */
export const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value)

/**
 * A value `accept` recognises, refused as "must be `what` (got its type)":
 * an option whose rule is its type (a string, a flag), or a function or
 * object of the caller's, whose inside is not the schema's to check.
 *
 * @example
 * ```ts
 * const fetchField = typed<typeof fetch>('a function', (value) => typeof value === 'function')
 * v.safeParse(fetchField, {}).issues?.[0].message // 'must be a function (got object)'
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function typed<T>(what: string, accept: (value: unknown) => boolean) {
  return v.custom<T>(accept, (issue) => `must be ${what} (got ${typeName(issue.input)})`)
}

/** A schema for each field of `T`, no more and no fewer. */
export type FieldSchemas<T> = { readonly [K in keyof Required<T>]: v.GenericSchema<unknown, unknown> }

/**
 * An options object of type `T`, each field checked by its entry, every
 * unknown name refused (a misspelt option would otherwise keep its default
 * without a word): by default "is not an option (the options are …)". All
 * issues come at once: the known fields in the order of `entries`, then the
 * unknown names in the order given. A required field left out "is required";
 * anything but an object "must be an object (got …)".
 */
/* @__NO_SIDE_EFFECTS__ */
export function knownFields<T extends object>(entries: FieldSchemas<T>, unknown = `is not an option (the options are ${Object.keys(entries).join(', ')})`) {
  // Typed as `T`: the rest schema only refuses names, it adds no field.
  const fields = v.objectWithRest(entries, v.never(unknown), 'is required') as unknown as v.GenericSchema<T>
  return plainObject(fields, (issue) => `must be an object (got ${typeName(issue.input)})`)
}

/**
 * The input type of an options object whose entries are `E`: a field is
 * optional where its entry is `v.optional`, and every field is readonly.
 */
export type OptionsOf<E> = {
  readonly [K in keyof E as E[K] extends v.OptionalSchema<v.GenericSchema, unknown> ? never : K]: v.InferInput<E[K] & v.GenericSchema>
} & {
  readonly [K in keyof E as E[K] extends v.OptionalSchema<v.GenericSchema, unknown> ? K : never]?: v.InferInput<E[K] & v.GenericSchema>
}
