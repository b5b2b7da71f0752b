import type { RequestIssue } from '../errors/InvalidRequestError.js'

/**
 * Whether JSON text produced by `JSON.stringify` may hold a number that was
 * not finite. `JSON.stringify` writes `NaN`, `Infinity` and `-Infinity` as
 * `null`, so text without `null` certainly holds none: the common body is
 * cleared by one scan of its text, and only the rest is serialised again
 * by {@link stringifyFinite}.
 */
export function mayHoldNonFinite(text: string): boolean {
  return text.includes('null')
}

/**
 * `JSON.stringify(body)`, with the fields that hold a number it silently
 * writes as `null`: `NaN`, `Infinity` or `-Infinity` (a `Number` object of one
 * too), anywhere, each named by its dotted path (`metadata.scores.2`; `''`
 * for the body itself). The numbers are looked at during the very
 * serialisation that makes `text`, so the verdict holds for that text even if
 * a `toJSON` answers differently each time; what is never sent (a function,
 * a field left `undefined`) is not looked at.
 *
 * @example
 * ```ts
 * stringifyFinite({ temperature: NaN, metadata: { scores: [1, 2, Infinity] } }).issues
 * // → [{ path: 'temperature', message: 'must be a finite number (got NaN)' },
 * //    { path: 'metadata.scores.2', message: 'must be a finite number (got Infinity)' }]
 * ```
 */
export function stringifyFinite(body: unknown): { readonly text: string | undefined; readonly issues: RequestIssue[] } {
  // A clean body pays for one plain replacer; paths are traced only for the message of one that is refused.
  let found = false
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!found && nonFinite(value) !== undefined) found = true
    return value
  }) as string | undefined
  if (!found) return { text, issues: [] }
  const issues = tracedIssues(body)
  // A toJSON that answered differently the second time still leaves the first text unsendable.
  return { text, issues: issues.length > 0 ? issues : [{ path: '', message: 'must hold only finite numbers' }] }
}

/** Each non-finite number in `body` as it serialises, named by its path. */
function tracedIssues(body: unknown): RequestIssue[] {
  const issues: RequestIssue[] = []
  // The replacer is told a key and its holder, not a path: each object's path
  // is noted when it is met, and serialisation is depth-first, so a holder's
  // path is known (and, for an object met twice, current) when its fields are.
  const paths = new Map<object, string>()
  JSON.stringify(body, function (this: object, key: string, value: unknown) {
    const parent = paths.get(this)
    const path = parent ? `${parent}.${key}` : key
    const bad = nonFinite(value)
    if (bad !== undefined) issues.push({ path, message: `must be a finite number (got ${String(bad)})` })
    if (typeof value === 'object' && value !== null) paths.set(value, path)
    return value
  })
  return issues
}

/** The number `value` is sent as, when it is not finite (a Number object is sent as its value). */
function nonFinite(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : value instanceof Number ? value.valueOf() : 0
  return Number.isFinite(n) ? undefined : n
}
