import { invalid } from './apiError.js'

/**
 * Small hand-written request checks. Each throws a 400 whose `param` names
 * the field and whose message states the rule and what was sent, e.g.
 * `temperature: must be a number from 0 to 2 inclusive (got 3)`.
 * "Characters" are Unicode code points.
 */

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An own field of a parsed body: never an inherited one such as `constructor`. */
export function field(body: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined
}

/** The length of a string in characters (code points), as a person counts them. */
export function chars(text: string): number {
  let count = 0
  for (const _ of text) count += 1
  return count
}

/** A short, safe rendering of a value for an error message. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return chars(value) > 40 ? `a string of ${chars(value)} characters` : JSON.stringify(value)
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (isObject(value)) return 'an object'
  return String(value)
}

/** Throws the 400 for a broken rule. */
export function refuse(param: string, rule: string, value: unknown, code = 'invalid_value'): never {
  return refuseGot(param, rule, shown(value), code)
}

/** Throws the 400 for a broken rule, saying what was sent in words, e.g. `17 pairs`. */
export function refuseGot(param: string, rule: string, got: string, code = 'invalid_value'): never {
  throw invalid(param, `${param}: ${rule} (got ${got})`, code)
}

/** Throws the 400 for a missing required field. */
export function missing(param: string): never {
  throw invalid(param, `${param}: is required`, 'missing_required_parameter')
}

/** How a type is named in messages, with `or null` where null is allowed. */
const typed = (name: string, nullable: boolean) => `must be ${name}${nullable ? ' or null' : ''}`

/** A string (or null when `nullable`); `maxChars` and `nonEmpty` as given. */
export function checkString(param: string, value: unknown, rules: { nullable?: boolean; maxChars?: number; nonEmpty?: boolean } = {}): void {
  if (value === null && rules.nullable) return
  if (typeof value !== 'string') refuse(param, typed('a string', rules.nullable ?? false), value, 'invalid_type')
  if (rules.nonEmpty && value.length === 0) refuse(param, 'must not be empty', value)
  if (rules.maxChars !== undefined && chars(value) > rules.maxChars) refuse(param, `must be at most ${rules.maxChars} characters`, value)
}

/** A finite number (an integer when `integer`) within `min`..`max` inclusive. */
export function checkNumber(param: string, value: unknown, rules: { nullable?: boolean; integer?: boolean; min?: number; max?: number }): void {
  if (value === null && rules.nullable) return
  const kind = rules.integer ? 'an integer' : 'a number'
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(param, typed(kind, rules.nullable ?? false), value, 'invalid_type')
  if (rules.integer && !Number.isInteger(value)) refuse(param, typed(kind, rules.nullable ?? false), value, 'invalid_type')
  const { min, max } = rules
  const range =
    min !== undefined && max !== undefined ? `must be ${kind} from ${min} to ${max} inclusive` : min !== undefined ? `must be ${kind} of at least ${min}` : `must be ${kind} of at most ${max}`
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) refuse(param, range, value)
}

/** A boolean (or null when `nullable`). */
export function checkBoolean(param: string, value: unknown, nullable = false): void {
  if (value === null && nullable) return
  if (typeof value !== 'boolean') refuse(param, typed('a boolean', nullable), value, 'invalid_type')
}

/** One of the listed values (or null when `nullable`). */
export function checkOneOf(param: string, value: unknown, values: readonly unknown[], nullable = false): void {
  if (value === null && nullable) return
  if (!values.includes(value)) refuse(param, `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}${nullable ? ' or null' : ''}`, value)
}

/** A JSON object (or null when `nullable`). */
export function checkObject(param: string, value: unknown, nullable = false): asserts value is Record<string, unknown> | null {
  if (value === null && nullable) return
  if (!isObject(value)) refuse(param, typed('an object', nullable), value, 'invalid_type')
}

/** An array (or null when `nullable`). */
export function checkArray(param: string, value: unknown, nullable = false): asserts value is unknown[] | null {
  if (value === null && nullable) return
  if (!Array.isArray(value)) refuse(param, typed('an array', nullable), value, 'invalid_type')
}
