import * as v from 'valibot'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { TaskIdSchema } from './task.js'

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

/** Checks a task id, a UUID, before it becomes a path segment. */
export function checkTaskId(id: unknown): string {
  if (!v.is(TaskIdSchema, id)) throw new InvalidRequestError([{ path: 'taskId', message: `must be a UUID (got ${JSON.stringify(id)})` }])
  return id
}
