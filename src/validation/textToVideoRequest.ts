import * as v from 'valibot'
import { TEXT_TO_VIDEO as T } from '../contract/limits.js'
import { atMostCharacters, bool, integerIn, objectMessage, text, textUpTo } from './fields.js'

/** The ten output sizes of the interface (720P and 1080P tiers), `width*height`. */
export const VIDEO_SIZES = T.sizes

const absoluteUri = v.pipe(
  text,
  v.check((value) => /^[a-z][a-z\d+.-]*:\/\/[^\s/]/i.test(value) && URL.canParse(value), 'must be an absolute URI'),
)

const entries = {
  prompt: v.pipe(text, v.nonEmpty('must not be empty'), atMostCharacters(T.promptMaxChars)),
  negative_prompt: v.optional(textUpTo(T.negativePromptMaxChars)),
  audio: v.nullish(bool),
  audio_url: v.nullish(absoluteUri),
  size: v.optional(v.picklist(T.sizes, `must be one of ${T.sizes.join(', ')}`)),
  duration: v.optional(v.picklist(T.durations, `must be ${T.durations.join(' or ')}`)),
  prompt_extend: v.optional(bool),
  seed: v.optional(integerIn(T.seedMin, T.seedMax)),
}

/** The text-to-video creation body, every constraint of the interface; unknown fields are refused. */
export const TextToVideoRequestSchema = v.strictObject(entries, (issue) =>
  issue.expected === 'never' ? 'is not a field of text-to-video creation (to send it anyway, pass allowUnknownFields to textToVideo$, or allowUnknownTextToVideoFields to rxgate/server)' : objectMessage(issue),
)

/** The same rules, letting fields the interface does not list through (e.g. newer model options). */
export const TextToVideoRequestLooseSchema = v.looseObject(entries, objectMessage)

/**
 * A text-to-video creation body as the caller writes it: `prompt` (required),
 * `negative_prompt`, `size` (one of {@link VIDEO_SIZES}), `duration`, `seed`,
 * `audio`, `audio_url` (a custom WAV or MP3, see {@link CUSTOM_AUDIO}) and
 * `prompt_extend`, each checked against the interface before sending.
 */
export type TextToVideoRequest = v.InferInput<typeof TextToVideoRequestSchema>
