/**
 * Reads a `Retry-After` value as milliseconds from `now`: delay-seconds
 * (`120`, `1.5`) or an HTTP date. Returns `undefined` for a missing or
 * garbage value; a past date is 0. Huge values are returned as they are:
 * capping them is the caller's policy, not this parser's.
 *
 * @example
 * ```ts
 * parseRetryAfter('2')                                   // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)  // ms until then, or 0
 * parseRetryAfter('soon')                                // undefined
 * ```
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000)
  // Only a real HTTP date (it names a weekday or month) counts, not any string Date.parse accepts.
  if (!/[a-z]{3}/i.test(text)) return undefined
  // HTTP dates are GMT; the asctime form (`Sun Nov  6 08:49:37 1994`) does not say so.
  const date = Date.parse(/(GMT|UTC|Z|[+-]\d{4})$/i.test(text) ? text : `${text} GMT`)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
