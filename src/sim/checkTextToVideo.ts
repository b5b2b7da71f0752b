import { TEXT_TO_VIDEO } from '../contract/index.js'
import { invalid } from './apiError.js'
import { checkBoolean, checkNumber, checkOneOf, checkString, field, missing, refuse } from './checkKit.js'

/** The text-to-video fields the simulator reads once the body has passed. */
export interface TextToVideoBody {
  readonly prompt: string
  readonly audioUrl?: string
}

/**
 * Checks a text-to-video creation body against the interface, field by
 * field in the interface's order, then refuses fields it does not list
 * (unless `allowUnknown`). The first broken rule is a 400 naming the field.
 *
 * @example
 * ```ts
 * checkTextToVideo({ prompt: 'A fox', duration: 7 }, false)
 * // throws 400: "duration: must be one of 5, 10 (got 7)", param "duration"
 * ```
 */
export function checkTextToVideo(body: Record<string, unknown>, allowUnknown: boolean): TextToVideoBody {
  const prompt = field(body, 'prompt')
  if (prompt === undefined) missing('prompt')
  checkString('prompt', prompt, { nonEmpty: true, maxChars: TEXT_TO_VIDEO.promptMaxChars })
  const optional = (key: string, check: (value: unknown) => void) => {
    const value = field(body, key)
    if (value !== undefined) check(value)
  }
  optional('negative_prompt', (v) => checkString('negative_prompt', v, { maxChars: TEXT_TO_VIDEO.negativePromptMaxChars }))
  optional('audio', (v) => checkBoolean('audio', v, true))
  optional('audio_url', (v) => checkAudioUrl(v))
  optional('size', (v) => checkOneOf('size', v, TEXT_TO_VIDEO.sizes))
  optional('duration', (v) => checkOneOf('duration', v, TEXT_TO_VIDEO.durations))
  optional('prompt_extend', (v) => checkBoolean('prompt_extend', v))
  optional('seed', (v) => checkNumber('seed', v, { integer: true, min: TEXT_TO_VIDEO.seedMin, max: TEXT_TO_VIDEO.seedMax }))
  if (!allowUnknown) {
    const known: readonly string[] = TEXT_TO_VIDEO.fields
    const unknown = Object.keys(body).find((key) => !known.includes(key))
    if (unknown !== undefined) throw invalid(unknown, `${unknown}: is not a field of text-to-video creation (the fields are ${known.join(', ')})`, 'unknown_parameter')
  }
  const audioUrl = field(body, 'audio_url')
  return { prompt: prompt as string, ...(typeof audioUrl === 'string' ? { audioUrl } : {}) }
}

/** `audio_url`: an absolute URI (with a scheme), or null. */
function checkAudioUrl(value: unknown): void {
  checkString('audio_url', value, { nullable: true })
  if (value !== null && !/^[a-z][a-z\d+.-]*:/i.test(value as string)) refuse('audio_url', 'must be an absolute URI, e.g. https://example.com/a.mp3', value)
  if (value !== null && !URL.canParse(value as string)) refuse('audio_url', 'must be an absolute URI, e.g. https://example.com/a.mp3', value)
}

/**
 * The creation body of the models whose body the interface does not show
 * (a simulator convenience): any JSON object with a non-empty string `prompt`.
 */
export function checkPromptBody(body: Record<string, unknown>): { readonly prompt: string } {
  const prompt = field(body, 'prompt')
  if (prompt === undefined) missing('prompt')
  checkString('prompt', prompt, { nonEmpty: true })
  return { prompt: prompt as string }
}
