import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { publicNetworkIssues } from '../transport/allowHosts.js'

// The checks of the library's own options (client and per call), which
// valibot's request schemas do not cover: a malformed timing would make a
// poll loop hammer the gateway, a typo would silently keep a default.

/** The longest delay a timer can hold (2^31-1 ms, about 24.8 days); a longer one would fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** A check of one value: the rule it breaks, or undefined. */
type Check = (value: unknown) => string | undefined

const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value))
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

/** An integer of milliseconds from `min` to the longest timer. */
export const millis =
  (min: number): Check =>
  (value) =>
    isNumber(value) && Number.isInteger(value) && value >= min && value <= MAX_TIMER_MS ? undefined : `must be an integer of milliseconds from ${min} to ${MAX_TIMER_MS} (got ${show(value)})`

/** An integer from 0 to `max`. */
export const count =
  (max: number): Check =>
  (value) =>
    isNumber(value) && Number.isInteger(value) && value >= 0 && value <= max ? undefined : `must be an integer from 0 to ${max} (got ${show(value)})`

const between =
  (min: number, max: number): Check =>
  (value) =>
    isNumber(value) && value >= min && value <= max ? undefined : `must be a number from ${min} to ${max} (got ${show(value)})`

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Polling: the first wait, its growth, the longest wait and the share of it taken off at random. */
export const POLL_CHECKS: Readonly<Record<string, Check>> = { initialDelayMs: millis(1), factor: between(1, 100), maxDelayMs: millis(1), jitter: between(0, 1) }

/** Retries: how many, and the waits between them. */
export const RETRY_CHECKS: Readonly<Record<string, Check>> = { count: count(100), baseDelayMs: millis(0), maxDelayMs: millis(0), maxRetryAfterMs: millis(0) }

/**
 * Adds to `issues` what is wrong with `value`, an options object whose
 * fields `checks` knows (an unknown field is an issue too: a typo would
 * otherwise keep the default without a word). Undefined is no options.
 */
export function checkFields(issues: RequestIssue[], path: string, value: unknown, checks: Readonly<Record<string, Check>>): void {
  if (value === undefined) return
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ path, message: `must be an object (got ${Array.isArray(value) ? 'an array' : show(value)})` })
    return
  }
  for (const [key, field] of Object.entries(value)) {
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined
    if (!check) issues.push({ path: `${path}.${key}`, message: `is not an option (the options are ${Object.keys(checks).join(', ')})` })
    else if (field !== undefined) {
      const broken = check(field)
      if (broken) issues.push({ path: `${path}.${key}`, message: broken })
    }
  }
}

/** A header value as HTTP allows it: tab, visible ASCII, space and Latin-1; no CR, LF or NUL, which would split the request. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
/** Headers the connection sets: given as extra headers, each would break every call (undici refuses them, or they contradict the body). */
const CONNECTION_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer'])

/** Extra headers (the client's, the relay's): names HTTP allows and the connection does not set, string values on one line, each name once. */
export function checkHeaders(issues: RequestIssue[], path: string, value: unknown): void {
  if (value === undefined) return
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ path, message: 'must be an object of header names and string values' })
    return
  }
  const seen = new Set<string>()
  for (const [name, field] of Object.entries(value)) {
    const at = `${path}.${name}`
    const lower = name.toLowerCase()
    if (!TOKEN.test(name)) issues.push({ path: at, message: 'is not a valid header name' })
    else if (CONNECTION_HEADERS.has(lower)) issues.push({ path: at, message: 'is set by the connection and cannot be sent as an extra header' })
    else if (seen.has(lower)) issues.push({ path: at, message: 'is given twice (header names ignore case)' })
    else if (typeof field !== 'string') issues.push({ path: at, message: `must be a string (got ${typeof field})` })
    else if (!HEADER_VALUE.test(field)) issues.push({ path: at, message: 'must be one line of printable characters (no CR, LF or other control characters)' })
    seen.add(lower)
  }
}

/**
 * `allowHosts` and `allowPrivateNetwork` of options at the top level (the
 * client's), by the rule every option that carries them shares
 * (`publicNetworkIssues`): an array of hostnames, `host:port` or origins,
 * and a boolean. Undefined is the default; an option already refused is
 * not refused twice.
 *
 * @example
 * ```ts
 * const issues: RequestIssue[] = []
 * checkPublicNetwork(issues, { allowPrivateNetwork: 'false' })
 * // issues: [{ path: 'allowPrivateNetwork', message: 'must be true or false (got string)' }]
 * ```
 */
export function checkPublicNetwork(issues: RequestIssue[], options: { readonly allowHosts?: unknown; readonly allowPrivateNetwork?: unknown }): void {
  for (const issue of publicNetworkIssues('', options)) {
    const option = issue.path.replace(/\[.*$/, '')
    if (!issues.some((given) => given.path === option)) issues.push(issue)
  }
}

/** Per-call options of the task functions (`poll`, `deadlineMs`, and for creations `idempotencyKey`): throws {@link InvalidRequestError} naming each broken one. */
export function checkTaskOptions(options: { readonly poll?: unknown; readonly deadlineMs?: unknown; readonly idempotencyKey?: unknown }): void {
  const issues: RequestIssue[] = []
  checkFields(issues, 'poll', options.poll, POLL_CHECKS)
  if (options.deadlineMs !== undefined) {
    const broken = millis(1)(options.deadlineMs)
    if (broken) issues.push({ path: 'deadlineMs', message: broken })
  }
  if (options.idempotencyKey !== undefined) {
    const broken = idempotencyKeyIssue(options.idempotencyKey)
    if (broken) issues.push({ path: 'idempotencyKey', message: broken })
  }
  if (issues.length > 0) throw new InvalidRequestError(issues, 'options')
}

/** An `Idempotency-Key` is a header value: 1 to 255 printable ASCII characters. */
export function idempotencyKeyIssue(key: unknown): string | undefined {
  return typeof key === 'string' && /^[\x21-\x7e]{1,255}$/.test(key) ? undefined : `must be 1 to 255 printable ASCII characters without spaces (got ${show(key)})`
}
