// Apart from body.ts, which reads a Node request: the in-process test gateway
// (rxgate/testing, in a browser bundle too) compares idempotent bodies with it.

/**
 * A JSON text that is the same for equal values whatever their key order:
 * keys sorted, no spaces. Written directly as text, so keys like
 * `__proto__` are kept as the data they are.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
