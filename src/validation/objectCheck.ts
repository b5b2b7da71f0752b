/** A check of one value (as `Check` in fastCheck.ts). */
type Check = (value: unknown) => boolean

/**
 * An object check written out for its keys, where code may be made from
 * strings: `v["item_id"]` is a property read that V8 learns per object
 * check, where the loop's `record[keys[i]]`, shared by every object schema,
 * looks each key up anew (a streamed delta is checked about eight times
 * faster). The source holds the schema's own key names only, quoted by
 * `JSON.stringify`, never a value. Where strings may not become code
 * (`--disallow-code-generation-from-strings`, a worker runtime), the loop
 * of `compileCheck` does the same check (this is then `undefined`).
 *
 * @example
 * ```ts
 * const check = objectCheck?.(['item_id'], [(value) => typeof value === 'string'])
 * check?.({ item_id: 'msg_1' }) // true
 * ```
 */
export const objectCheck = ((): ((keys: readonly string[], checks: readonly Check[]) => Check) | undefined => {
  try {
    const make = (keys: readonly string[], checks: readonly Check[]): Check => {
      const terms = keys.map((key, i) => `c[${i}](v[${JSON.stringify(key)}])`)
      return new Function('c', `return (v) => !!v && typeof v === 'object' && ${terms.join(' && ') || 'true'}`)(checks) as Check
    }
    return make(['a'], [(value) => value === 1])({ a: 1 }) ? make : undefined
  } catch {
    return undefined
  }
})()
