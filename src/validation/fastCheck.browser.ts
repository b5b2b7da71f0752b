import type * as v from 'valibot'

/** Tests a value against a schema's rules without building a new value. */
export type FastCheck = (value: unknown) => boolean

/**
 * The browser build has no fast checks: browser streams arrive at the rate a
 * model writes, where valibot's own parsing costs nothing noticeable, and
 * the derivation code would only add to every app's bundle.
 */
export function compileCheck(_schema: v.GenericSchema<unknown, unknown>): FastCheck | undefined {
  return undefined
}
