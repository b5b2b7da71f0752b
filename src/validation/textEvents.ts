import * as v from 'valibot'
import { AnnotationSchema, LogprobSchema } from './contentParts.js'
import { byType, event, inPart, int } from './eventSchema.js'

// Text and refusal events. `response.output_text.delta` is the hot event of
// every stream: its schema must stay readable by `compileCheck` (loose
// objects, literals, strings, numbers, arrays, optionals; no transforms), so a
// delta is checked in place and never copied by valibot.

const logprobs = v.optional(v.array(LogprobSchema))
/** Random padding some servers add to deltas to hide their length. */
const obfuscation = v.optional(v.string())

/** Text and refusal events, by type. */
export const TEXT_EVENTS = byType(
  event('response.output_text.delta', { ...inPart, delta: v.string(), logprobs, obfuscation }),
  event('response.output_text.done', { ...inPart, text: v.string(), logprobs }),
  event('response.output_text.annotation.added', { ...inPart, annotation_index: int, annotation: AnnotationSchema }),
  event('response.refusal.delta', { ...inPart, delta: v.string(), obfuscation }),
  event('response.refusal.done', { ...inPart, refusal: v.string() }),
)
