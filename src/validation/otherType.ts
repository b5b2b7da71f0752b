import * as v from 'valibot'

declare const unknownType: unique symbol

/**
 * The `type` of an item, part, annotation or event this version does not
 * model. At run time it is the payload's own type string (read it with
 * `String(x.type)`); it is typed apart so that `x.type === '…'` narrows to the
 * modelled kind alone, and a new kind from the server passes through.
 */
export interface UnknownType {
  /** A brand that no value carries: it keeps this type apart from the modelled kinds' literals. */
  readonly [unknownType]: 'a type this version does not model'
}

/**
 * The discriminator of the catch-all option of a variant: any string except
 * the modelled kinds, so a malformed known kind is refused by its own schema
 * (naming the broken field) rather than waved through as unknown.
 *
 * @example
 * ```ts
 * const Part = v.variant('type', [v.looseObject({ type: v.literal('text'), text: v.string() }), v.looseObject({ type: otherType(['text']) })])
 * v.is(Part, { type: 'image' }) // true
 * v.is(Part, { type: 'text' })  // false: a text part needs its text
 * // Output: true false
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function otherType(known: readonly string[]) {
  const modelled = new Set(known)
  return v.custom<UnknownType>((type) => typeof type === 'string' && !modelled.has(type), 'must be a string')
}
