import { isObject } from './checkKit.js'
import { snippetOf } from './pieces.js'

/** A function's output, with the function's name. */
export interface NamedOutput {
  readonly name: string
  readonly output: string
}

/**
 * The text answer to a request that gives back function outputs: it states
 * each returned value, so a test can see the outputs were used.
 *
 * @example
 * ```ts
 * answerFromOutputs([{ name: 'get_weather', output: '{"temperature":21,"unit":"celsius"}' }])
 * // 'Here is what I found — get_weather returned temperature 21 and unit celsius. Anything else?'
 * ```
 */
export function answerFromOutputs(outputs: readonly NamedOutput[]): string {
  return `Here is what I found — ${factsOf(outputs)}. Anything else?`
}

/**
 * What the outputs say, one clause each.
 *
 * @example
 * ```ts
 * factsOf([{ name: 'get_weather', output: '{"temperature":21}' }, { name: 'get_time', output: '"12:30"' }])
 * // 'get_weather returned temperature 21; get_time returned “12:30”'
 * ```
 */
export function factsOf(outputs: readonly NamedOutput[]): string {
  return outputs.map(({ name, output }) => `${name} returned ${describe(output)}`).join('; ')
}

/**
 * Whether a function output reports a failure, as a model reads it: text
 * that starts with `Error` (any case, as tool loops write `Error: …`), or a
 * JSON object with an `error` field that is not null or false.
 *
 * @example
 * ```ts
 * readsAsError('Error: city: is required') // true
 * readsAsError('{"error":{"message":"bad unit"}}') // true
 * readsAsError('{"error":null,"temperature":3}') // false
 * ```
 */
export function readsAsError(output: string): boolean {
  if (/^error\b/i.test(output.trimStart())) return true
  try {
    const value: unknown = JSON.parse(output)
    return isObject(value) && Object.hasOwn(value, 'error') && value.error !== null && value.error !== false
  } catch {
    return false
  }
}

function describe(output: string): string {
  let value: unknown
  try {
    value = JSON.parse(output)
  } catch {
    return `“${snippetOf(output, 12)}”`
  }
  if (!isObject(value)) return typeof value === 'string' ? `“${snippetOf(value, 12)}”` : JSON.stringify(value)
  const pairs = Object.keys(value).map((key) => `${key} ${typeof value[key] === 'string' ? value[key] : JSON.stringify(value[key])}`)
  return pairs.length === 0 ? 'nothing' : pairs.length === 1 ? pairs[0]! : `${pairs.slice(0, -1).join(', ')} and ${pairs.at(-1)}`
}

/**
 * The text a function's string arguments are built from: a capitalised
 * name after `in`, `for`, `at` or `about` (“weather in Paris” → `Paris`),
 * else the start of the user's text without the function names.
 */
export function argumentTextOf(userText: string, names: readonly string[]): string {
  const place = /\b(?:in|for|at|about|near)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/u.exec(userText)?.[1]
  if (place) return place
  const rest = names.reduce((text, name) => text.replaceAll(name, ' '), userText)
  return snippetOf(rest.replace(/[?!.]+/g, ' '), 6).replace(/…$/, '') || 'example'
}
