import * as v from 'valibot'
import type { PollTiming } from '../contract/endpoint.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import type { RetryOptions } from '../policy/defaults.js'
import { MAX_TIMER_MS } from '../policy/delays.js'
import { toIssues } from './check.js'
import { isPlainObject, knownFields, typed } from './fields.js'

// The pieces of the library's own options (the client's, each call's, the
// relay's), each rule written once: a malformed timing would make a poll
// loop hammer the gateway, a typo would silently keep a default. A refused
// number is shown whatever its type, so a "250" read from the environment
// is seen as the string it is.


const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value))

/** A finite number that `accept` takes; anything else is refused as "`rule` (got the value)". */
/* @__NO_SIDE_EFFECTS__ */
function ruled(rule: string, accept: (value: number) => boolean) {
  return v.custom<number>((value) => typeof value === 'number' && Number.isFinite(value) && accept(value), (issue) => `${rule} (got ${show(issue.input)})`)
}

/** An integer from `min` to `max`. */
/* @__NO_SIDE_EFFECTS__ */
export function integerFromTo(min: number, max: number, rule = `must be an integer from ${min} to ${max}`) {
  return ruled(rule, (value) => Number.isInteger(value) && value >= min && value <= max)
}

/** Any number from `min` to `max`. */
/* @__NO_SIDE_EFFECTS__ */
export function numberFromTo(min: number, max: number) {
  return ruled(`must be a number from ${min} to ${max}`, (value) => value >= min && value <= max)
}

/** An integer of milliseconds from `min` to the longest timer. */
/* @__NO_SIDE_EFFECTS__ */
export function milliseconds(min: number) {
  return integerFromTo(min, MAX_TIMER_MS, `must be an integer of milliseconds from ${min} to ${MAX_TIMER_MS}`)
}

/** {@link milliseconds} as a check of one value: the rule it breaks, or undefined. */
export const millis =
  (min: number) =>
  (value: unknown): string | undefined =>
    v.safeParse(milliseconds(min), value).issues?.[0].message

/** A boolean: a string "false" from an environment variable would otherwise read as true. */
export const flag = typed<boolean>('true or false', (value) => typeof value === 'boolean')

/** Polling: the first wait, its growth, the longest wait and the share of it taken off at random. */
export const PollSchema = knownFields<PollTiming>({
  initialDelayMs: v.optional(milliseconds(1)),
  factor: v.optional(numberFromTo(1, 100)),
  maxDelayMs: v.optional(milliseconds(1)),
  jitter: v.optional(numberFromTo(0, 1)),
})

/** Retries: how many, and the waits between them. */
export const RetrySchema = knownFields<RetryOptions>({
  count: v.optional(integerFromTo(0, 100)),
  baseDelayMs: v.optional(milliseconds(0)),
  maxDelayMs: v.optional(milliseconds(0)),
  maxRetryAfterMs: v.optional(milliseconds(0)),
})

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** A header value as HTTP allows it: tab, visible ASCII, space and Latin-1; no CR, LF or NUL, which would split the request. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
/** Headers the connection sets: given as extra headers, each would break every call (undici refuses them, or they contradict the body). */
const CONNECTION_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer'])

/** What is wrong with one extra header, given the lower-case names before it. */
function headerIssue(name: string, value: unknown, seen: ReadonlySet<string>): string | undefined {
  const lower = name.toLowerCase()
  if (!TOKEN.test(name)) return 'is not a valid header name'
  if (CONNECTION_HEADERS.has(lower)) return 'is set by the connection and cannot be sent as an extra header'
  if (seen.has(lower)) return 'is given twice (header names ignore case)'
  if (typeof value !== 'string') return `must be a string (got ${typeof value})`
  return HEADER_VALUE.test(value) ? undefined : 'must be one line of printable characters (no CR, LF or other control characters)'
}

/** Extra headers (the client's, the relay's): names HTTP allows and the connection does not set, string values on one line, each name once; one issue per broken header, in the order given. */
export const HeadersSchema = v.pipe(
  v.custom<Readonly<Record<string, string>>>(
    (value) => isPlainObject(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value)),
    (issue) =>
      isPlainObject(issue.input)
        ? 'must be a plain object of header names and string values (a Headers or Map object would send none of them)'
        : 'must be an object of header names and string values',
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const input = dataset.value
    const seen = new Set<string>()
    for (const [key, value] of Object.entries(input)) {
      const message = headerIssue(key, value, seen)
      if (message) addIssue({ message, path: [{ type: 'object', origin: 'value', input, key, value }] })
      seen.add(key.toLowerCase())
    }
  }),
)

const isIdempotencyKey = (key: unknown): key is string => typeof key === 'string' && /^[\x21-\x7e]{1,255}$/.test(key)
const idempotencyKeyRule = (key: unknown): string => `must be 1 to 255 printable ASCII characters without spaces (got ${show(key)})`

/** An `Idempotency-Key` is a header value: 1 to 255 printable ASCII characters. */
export function idempotencyKeyIssue(key: unknown): string | undefined {
  return isIdempotencyKey(key) ? undefined : idempotencyKeyRule(key)
}

/** Per-call options of the task functions; other fields of the options are theirs to check. Made on first use: the client alone needs none of it. */
let taskOptions: v.GenericSchema | undefined

/** Per-call options of the task functions (`poll`, `deadlineMs`, and for creations `idempotencyKey`): throws {@link InvalidRequestError} naming each broken one. */
export function checkTaskOptions(options: { readonly poll?: unknown; readonly deadlineMs?: unknown; readonly idempotencyKey?: unknown }): void {
  taskOptions ??= v.object({
    poll: v.optional(PollSchema),
    deadlineMs: v.optional(milliseconds(1)),
    idempotencyKey: v.optional(v.custom<string>(isIdempotencyKey, (issue) => idempotencyKeyRule(issue.input))),
  })
  const result = v.safeParse(taskOptions, options)
  if (!result.success) throw new InvalidRequestError(toIssues(result.issues), 'options')
}
