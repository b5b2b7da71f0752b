import { InvalidRequestError } from '../errors/InvalidRequestError.js'

/**
 * Checks an id that will become a path segment: non-empty, at most 256
 * characters of letters, digits, `_`, `-`, `.` and `:`, and not `.` or `..`.
 * Anything else (a `/`, `?`, `#`, `%`, a space) could change which resource a
 * request reaches, so it is refused before a path is built.
 */
export function checkIdSegment(id: unknown, field: string): string {
  if (typeof id !== 'string' || !/^[\w.:-]{1,256}$/.test(id) || id === '.' || id === '..') {
    throw new InvalidRequestError([{ path: field, message: `must be an id of letters, digits, "_", "-", "." or ":" (got ${JSON.stringify(id)})` }])
  }
  return id
}
