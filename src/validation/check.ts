import * as v from 'valibot'
import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { compileCheck } from './fastCheck.js'
import { mayHoldNonFinite, stringifyFinite } from './finite.js'

type AnySchema = v.GenericSchema<unknown, unknown>

/**
 * Flattens valibot's issues into `{ path, message }` pairs, nested issues
 * included. Paths are dotted (`input.0.content`), or with `brackets` a list
 * index is bracketed (`allowHosts[1]`), as the library's options name them.
 */
export function toIssues(issues: readonly v.BaseIssue<unknown>[], brackets = false): RequestIssue[] {
  return issues.map((issue) => ({ path: brackets ? bracketPath(issue) : (v.getDotPath(issue) ?? ''), message: issue.message }))
}

function bracketPath(issue: v.BaseIssue<unknown>): string {
  let path = ''
  for (const item of issue.path ?? []) path += item.type === 'array' ? `[${String(item.key)}]` : path ? `.${String(item.key)}` : String(item.key)
  return path
}

/**
 * What `schema` finds wrong with `value`, the value of the option at `path`:
 * a piece of an options schema applied to one option of code that checks its
 * options by hand.
 *
 * @example
 * ```ts
 * issuesAt('bodyTimeoutMs', v.optional(milliseconds(1)), 0)
 * // [{ path: 'bodyTimeoutMs', message: 'must be an integer of milliseconds from 1 to 2147483647 (got 0)' }]
 * ```
 */
export function issuesAt(path: string, schema: AnySchema, value: unknown): RequestIssue[] {
  const result = v.safeParse(schema, value)
  return result.success ? [] : result.issues.map((issue) => ({ path: issue.path?.length ? `${path}.${v.getDotPath(issue) ?? ''}` : path, message: issue.message }))
}

/**
 * Serialises a caller's request body and checks it in that form, so what is
 * checked is exactly what is sent: a `toJSON` cannot smuggle another body
 * past the rules, and holes in arrays are checked as the `null`s they become.
 * Returns the JSON text to send. A body that cannot be serialised (a BigInt,
 * a cycle), holds a number that is not finite (which JSON would carry as
 * `null`: `NaN`, `Infinity`), or breaks a rule throws
 * {@link InvalidRequestError} naming each field and rule.
 */
export function serializeRequest(schema: AnySchema, body: unknown, what = 'request'): string {
  let text: string | undefined
  let nonFinite: RequestIssue[] | undefined
  try {
    text = JSON.stringify(body)
    // Only text that may hold one is serialised again, noting each non-finite
    // number, and that text is the one sent. Text nested too deep is refused below instead.
    if (text !== undefined && mayHoldNonFinite(text) && !nestedDeeperThan(text, MAX_REQUEST_DEPTH)) ({ text, issues: nonFinite } = stringifyFinite(body))
  } catch (err) {
    throw unsendable(`${err instanceof Error ? err.message : String(err)}`, what)
  }
  // Refused before the rules: a NaN sent as null would pass a nullable field unseen.
  if (nonFinite?.length) throw new InvalidRequestError(nonFinite, what)
  if (text !== undefined && nestedDeeperThan(text, MAX_REQUEST_DEPTH)) throw unsendable(`nested deeper than ${MAX_REQUEST_DEPTH} levels`, what)
  const sent: unknown = text === undefined ? undefined : JSON.parse(text)
  // Valibot's object schemas take a list for an object: it would be refused field by field.
  if (Array.isArray(sent)) throw new InvalidRequestError([{ path: '', message: 'must be an object, not a list' }], what)
  let result: v.SafeParseResult<AnySchema>
  try {
    // A body the schema's rules pass needs no copy made of it; one they refuse goes to valibot for its issues.
    if (compileCheck(schema)?.(sent)) return text!
    result = v.safeParse(schema, sent)
  } catch (err) {
    throw unsendable(`${err instanceof Error ? err.message : String(err)}`, what)
  }
  if (!result.success) throw new InvalidRequestError(toIssues(result.issues), what)
  return text!
}

/**
 * How deep a request body may nest. Real bodies stay within a few dozen
 * levels; the bound makes a deeper one fail the same way on every stack size.
 */
const MAX_REQUEST_DEPTH = 512

function unsendable(reason: string, what: string): InvalidRequestError {
  return new InvalidRequestError([{ path: '', message: `cannot be sent as JSON (${reason})` }], what)
}

/** Whether JSON text nests arrays and objects deeper than `limit` (brackets inside strings do not count). */
function nestedDeeperThan(text: string, limit: number): boolean {
  // Each level takes two characters at least.
  if (text.length <= 2 * limit) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash escapes the next character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/**
 * Parses a gateway payload; a mismatch throws {@link ValidationError} with the payload attached.
 */
export function parsePayload<S extends AnySchema>(schema: S, payload: unknown, what: string): v.InferOutput<S> {
  // Where the schema would return an equal copy, the payload itself is returned.
  if (compileCheck(schema)?.(payload)) return payload as v.InferOutput<S>
  let result: v.SafeParseResult<S>
  try {
    result = v.safeParse(schema, payload)
  } catch {
    // A payload nested deeper than the stack allows is malformed too.
    throw new ValidationError(what, [{ path: '', message: 'is nested too deeply to read' }], payload)
  }
  if (!result.success) throw new ValidationError(what, toIssues(result.issues), payload)
  return result.output
}
