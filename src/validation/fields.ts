import * as v from 'valibot'

// Small field builders shared by the request schemas, so each rule's wording
// is written once and every message names the rule and, where useful, the value.

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

export const bool = v.boolean('must be true or false')
export const text = v.string('must be a string')

/**
 * Message for an object schema. Valibot reports a missing required key with
 * the enclosing object's message, so the path tells the two cases apart.
 */
export const objectMessage = (issue: v.BaseIssue<unknown>): string => (issue.path?.length ? 'is required' : 'must be an object')

/**
 * An object that is not an array. Valibot's object and record schemas take an
 * array for an object (and copy it into one), so the check comes first.
 */
/* @__NO_SIDE_EFFECTS__ */
export function plainObject<T extends v.GenericSchema<unknown, unknown>>(schema: T, message = 'must be an object') {
  return v.pipe(
    v.custom<v.InferInput<T>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), message),
    schema,
  )
}
