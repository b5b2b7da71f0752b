import * as v from 'valibot'
import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { compileCheck } from './fastCheck.js'

type AnySchema = v.GenericSchema<unknown, unknown>

/** Flattens valibot's issues into `{ path, message }` pairs, nested issues included. */
export function toIssues(issues: readonly v.BaseIssue<unknown>[]): RequestIssue[] {
  return issues.map((issue) => ({
    path: v.getDotPath(issue) ?? '',
    message: issue.message,
  }))
}

/**
 * Checks a caller's request body; a violation throws {@link InvalidRequestError}
 * naming each field and rule. Returns the body as the caller gave it (the
 * schema only checks, so what is sent is exactly what was passed).
 */
export function checkRequest<T>(schema: AnySchema, body: T, what = 'request'): T {
  if (compileCheck(schema)?.(body)) return body
  const result = v.safeParse(schema, body)
  if (!result.success) throw new InvalidRequestError(toIssues(result.issues), what)
  return body
}

/**
 * Parses a gateway payload; a mismatch throws {@link ValidationError} with the payload attached.
 */
export function parsePayload<S extends AnySchema>(schema: S, payload: unknown, what: string): v.InferOutput<S> {
  // Where the schema would return an equal copy, the payload itself is returned.
  if (compileCheck(schema)?.(payload)) return payload as v.InferOutput<S>
  const result = v.safeParse(schema, payload)
  if (!result.success) throw new ValidationError(what, toIssues(result.issues), payload)
  return result.output
}
