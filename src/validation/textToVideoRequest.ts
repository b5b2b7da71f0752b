import * as v from 'valibot'
import { bool, integerIn, objectMessage, text, textUpTo } from './fields.js'

/** The ten output sizes of the interface (720P and 1080P tiers), `width*height`. */
export const VIDEO_SIZES = [
  '1280*720',
  '720*1280',
  '960*960',
  '1088*832',
  '832*1088',
  '1920*1080',
  '1080*1920',
  '1440*1440',
  '1632*1248',
  '1248*1632',
] as const

const absoluteUri = v.pipe(
  text,
  v.check((value) => /^[a-z][a-z\d+.-]*:\/\/[^\s/]/i.test(value) && URL.canParse(value), 'must be an absolute URI'),
)

const entries = {
  prompt: v.pipe(text, v.nonEmpty('must not be empty'), v.maxLength(2000, (issue) => `must be at most 2000 characters (got ${issue.input.length})`)),
  negative_prompt: v.optional(textUpTo(500)),
  audio: v.nullish(bool),
  audio_url: v.nullish(absoluteUri),
  size: v.optional(v.picklist(VIDEO_SIZES, `must be one of ${VIDEO_SIZES.join(', ')}`)),
  duration: v.optional(v.picklist([5, 10], 'must be 5 or 10')),
  prompt_extend: v.optional(bool),
  seed: v.optional(integerIn(0, 2147483647)),
}

/** The text-to-video creation body, every constraint of the interface; unknown fields are refused. */
export const TextToVideoRequestSchema = v.strictObject(entries, (issue) =>
  issue.expected === 'never' ? 'is not a field of text-to-video creation (pass allowUnknownFields to send it anyway)' : objectMessage(issue),
)

/** The same rules, letting fields the interface does not list through (e.g. newer model options). */
export const TextToVideoRequestLooseSchema = v.looseObject(entries, objectMessage)

/** A text-to-video creation body as the caller writes it. */
export type TextToVideoRequest = v.InferInput<typeof TextToVideoRequestSchema>
