/**
 * A flag's value read as a whole number when it is written as one: decimal
 * digits only (spaces around them allowed). `Number` alone would also take
 * `0x1f`, `1e3`, `5.0` or `0b1`, so a typo or a value a script built wrongly
 * would pass as some other number; those give `NaN` here, for the caller's
 * range check to refuse.
 *
 * @example
 * ```ts
 * wholeNumber('200')  // 200
 * wholeNumber('0x10') // NaN
 * ```
 */
export function wholeNumber(text: string): number {
  const trimmed = text.trim()
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : Number.NaN
}
