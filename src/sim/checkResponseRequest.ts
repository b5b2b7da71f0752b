import { RESPONSE_REQUEST as R } from '../contract/index.js'
import { invalid } from './apiError.js'
import { checkArray, checkBoolean, checkNumber, checkObject, checkOneOf, checkString, chars, field, missing, refuseGot } from './checkKit.js'
import { checkInput, checkText, checkToolChoice, checkTools } from './checkResponseParts.js'
import { isReasoningModel } from './reasoningModel.js'

/**
 * Checks a response-creation body against the interface, in the order of
 * its field table; the first broken rule is a 400 naming the field. Fields
 * the interface does not list are let through, as OpenAI-compatible
 * clients send many (`stream_options`, `service_tier`, …).
 *
 * @example
 * ```ts
 * checkResponseRequest({ model: 'm', temperature: 3 })
 * // throws 400: "temperature: must be a number from 0 to 2 inclusive (got 3)"
 * ```
 */
export function checkResponseRequest(body: Record<string, unknown>): void {
  const get = (key: string) => field(body, key)
  const model = get('model')
  if (model === undefined) missing('model')
  checkString('model', model)
  const each: [string, (value: unknown) => void][] = [
    ['input', (v) => checkInput(v)],
    ['instructions', (v) => checkString('instructions', v, { nullable: true })],
    ['previous_response_id', (v) => checkString('previous_response_id', v, { nullable: true })],
    ['prompt', (v) => checkObject('prompt', v)],
    ['max_output_tokens', (v) => checkNumber('max_output_tokens', v, { nullable: true, integer: true, min: R.maxOutputTokensMin })],
    ['max_tool_calls', (v) => checkNumber('max_tool_calls', v, { nullable: true, integer: true })],
    ['temperature', (v) => checkNumber('temperature', v, { nullable: true, min: R.temperatureMin, max: R.temperatureMax })],
    ['top_p', (v) => checkNumber('top_p', v, { nullable: true, min: R.topPMin, max: R.topPMax })],
    ['top_logprobs', (v) => checkNumber('top_logprobs', v, { nullable: true, integer: true, min: R.topLogprobsMin, max: R.topLogprobsMax })],
    ['parallel_tool_calls', (v) => checkBoolean('parallel_tool_calls', v, true)],
    ['stream', (v) => checkBoolean('stream', v, true)],
    ['background', (v) => checkBoolean('background', v, true)],
    ['store', (v) => checkBoolean('store', v, true)],
    ['text', (v) => checkText(v)],
    ['tools', (v) => checkTools(v)],
    ['tool_choice', (v) => checkToolChoice(v, get('tools'))],
    ['reasoning', (v) => checkReasoning(v, model as string)],
    ['truncation', (v) => checkOneOf('truncation', v, R.truncation, true)],
    ['metadata', (v) => checkMetadata(v)],
    ['user', (v) => checkString('user', v, { nullable: true })],
    ['include', (v) => checkStrings('include', v)],
  ]
  for (const [key, check] of each) {
    const value = get(key)
    if (value !== undefined) check(value)
  }
  // A background response is learned by polling, which needs it stored (OpenAI refuses the pair too).
  if (get('background') === true && get('store') === false) {
    throw invalid('store', 'store: must not be false when background is true (a background response is read back by polling)')
  }
}

/** `reasoning`: an object, and only for reasoning models (an empty one, or all nulls, is let through). */
function checkReasoning(value: unknown, model: string): void {
  checkObject('reasoning', value)
  const set = Object.keys(value as object).filter((key) => (value as Record<string, unknown>)[key] !== null)
  if (set.length > 0 && !isReasoningModel(model)) {
    throw invalid(`reasoning.${set[0]}`, `reasoning.${set[0]}: is only for reasoning models (o1, o3, o4-mini, gpt-5…); model "${model}" is not one`, 'unsupported_parameter')
  }
  for (const key of ['effort', 'summary']) {
    const item = field(value as Record<string, unknown>, key)
    if (item !== undefined) checkString(`reasoning.${key}`, item, { nullable: true })
  }
}

/** `metadata`: at most 16 pairs; keys at most 64 characters; values strings of at most 512. Every key is checked alike, `__proto__` included. */
function checkMetadata(value: unknown): void {
  checkObject('metadata', value)
  const keys = Object.keys(value as object)
  if (keys.length > R.metadataMaxPairs) refuseGot('metadata', `must have at most ${R.metadataMaxPairs} key-value pairs`, `${keys.length}`)
  for (const key of keys) {
    const param = `metadata.${key}`
    if (chars(key) > R.metadataKeyMaxChars) refuseGot(param, `keys must be at most ${R.metadataKeyMaxChars} characters`, `a key of ${chars(key)}`)
    checkString(param, (value as Record<string, unknown>)[key], { maxChars: R.metadataValueMaxChars })
  }
}

/** An array of strings, or null. */
function checkStrings(param: string, value: unknown): void {
  checkArray(param, value, true)
  ;(value ?? []).forEach((item: unknown, index: number) => checkString(`${param}[${index}]`, item))
}
