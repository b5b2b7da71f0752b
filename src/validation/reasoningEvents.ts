import * as v from 'valibot'
import { SummaryTextPartSchema } from './contentParts.js'
import { at, byType, event, inPart, int } from './eventSchema.js'

// Reasoning events: the summary a reasoning model writes of its thinking
// (numbered parts, `summary_index`), and the raw reasoning text some servers
// stream (open-weight models through OpenRouter, for one).

const summary = { ...at, summary_index: int }
const obfuscation = v.optional(v.string())

/** Reasoning summary and reasoning text events, by type. */
export const REASONING_EVENTS = byType(
  event('response.reasoning_summary_part.added', { ...summary, part: SummaryTextPartSchema }),
  event('response.reasoning_summary_part.done', { ...summary, part: SummaryTextPartSchema }),
  event('response.reasoning_summary_text.delta', { ...summary, delta: v.string(), obfuscation }),
  event('response.reasoning_summary_text.done', { ...summary, text: v.string() }),
  event('response.reasoning_text.delta', { ...inPart, delta: v.string(), obfuscation }),
  event('response.reasoning_text.done', { ...inPart, text: v.string() }),
)
