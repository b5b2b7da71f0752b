import type { ToolCallError } from '../errors/ToolCallError.js'
import { listIssues } from '../errors/issues.js'
import { scrubText, WHOLE_KEY } from '../errors/redact.js'
import { isValidationError } from '../errors/ValidationError.js'

/** The longest error text a model is sent for one call. */
const MAX_OUTPUT_CHARS = 500

/**
 * What the model is told, as the call's output, when its call failed: one
 * short paragraph starting with `Error:` that says what to do differently.
 * Never a stack; a handler's own message is cut to a few hundred characters
 * and the client's whole key is masked in it (not a stretch of it, which
 * would tell a model guessing the key what it guessed right).
 *
 * @example
 * ```ts
 * toolErrorOutput(new ToolCallError('unknown-tool', { name: 'get_wether', callId: 'c1' }), ['get_weather'])
 * // → 'Error: there is no tool named "get_wether". The tools are: get_weather.'
 * ```
 */
export function toolErrorOutput(error: ToolCallError, offered: readonly string[], secret?: string): string {
  const name = JSON.stringify(error.toolName)
  let text: string
  if (error.reason === 'unknown-tool') {
    text = `Error: there is no tool named ${name}. ${offered.length > 0 ? `The tools are: ${offered.join(', ')}.` : 'No tool is offered.'}`
  } else if (error.reason === 'invalid-arguments') {
    const cause = error.cause
    const why = isValidationError(cause) ? listIssues(cause.issues) : 'they could not be read'
    text = `Error: the arguments of ${name} are invalid: ${why}. Call it again with arguments that match its parameters.`
  } else {
    text = `Error: ${name} failed: ${messageOf(error.cause)}`
  }
  // The whole key only: the model writes what comes back here (a tool name, arguments a handler quotes), so a masked
  // stretch would tell it which of its guesses is part of the key, one character at a time.
  if (secret) text = scrubText(text, secret, WHOLE_KEY)
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS - 1)}…` : text
}

function messageOf(cause: unknown): string {
  try {
    const message = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : JSON.stringify(cause)
    return message?.trim() || 'it gave no reason'
  } catch {
    return 'it gave no reason'
  }
}
