import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { MAX_TIMER_MS } from '../policy/delays.js'

/**
 * Checks an id that will become a path segment: non-empty, at most 256
 * characters of letters, digits, `_`, `-`, `.` and `:`, and not `.` or `..`.
 * Anything else (a `/`, `?`, `#`, `%`, a space) could change which resource a
 * request reaches, so it is refused before a path is built.
 */
export function checkIdSegment(id: unknown, field: string): string {
  if (typeof id !== 'string' || !ID_SEGMENT.test(id) || id === '.' || id === '..') {
    throw new InvalidRequestError([{ path: field, message: `must be an id of letters, digits, "_", "-", "." or ":" (got ${JSON.stringify(id)})` }])
  }
  return id
}

/** The shape of an id that may become a path segment. */
export const ID_SEGMENT = /^[\w.:-]{1,256}$/

/** Checks a duration option: an integer of milliseconds a timer can hold. */
export function checkDelay(ms: unknown, field: string): number {
  if (!(typeof ms === 'number' && Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMER_MS)) {
    throw new InvalidRequestError([{ path: field, message: `must be an integer of milliseconds from 1 to ${MAX_TIMER_MS} (got ${String(ms)})` }])
  }
  return ms
}
