import * as v from 'valibot'
import { ContentPartSchema } from './contentParts.js'
import { byType, event, inPart, int, seq } from './eventSchema.js'
import { OutputItemSchema } from './outputItems.js'
import { ResponseSchema } from './response.js'

// The events that frame a response: its life cycle (each carrying the
// Response as it stands), its output items and content parts opening and
// closing, and the error event.

/* @__NO_SIDE_EFFECTS__ */
function lifecycle<T extends string>(type: T) {
  return event(type, { response: ResponseSchema })
}

/* @__NO_SIDE_EFFECTS__ */
function outputItem<T extends string>(type: T) {
  return event(type, { output_index: int, item: OutputItemSchema })
}

/* @__NO_SIDE_EFFECTS__ */
function contentPart<T extends string>(type: T) {
  return event(type, { ...inPart, part: ContentPartSchema })
}

const errorFields = {
  code: v.nullish(v.union([v.string(), v.number()])),
  message: v.nullish(v.string()),
  param: v.nullish(v.string()),
}

/** The `error` event, flat (`code`, `message`) or nested (`error: { code, message }`): both occur in real traffic. */
const ErrorEvent = v.looseObject({
  type: v.literal('error'),
  sequence_number: seq,
  ...errorFields,
  error: v.nullish(v.looseObject({ type: v.nullish(v.string()), ...errorFields })),
})

/** Life cycle, output item, content part and error events, by type. */
export const LIFECYCLE_EVENTS = byType(
  lifecycle('response.created'),
  lifecycle('response.queued'),
  lifecycle('response.in_progress'),
  lifecycle('response.completed'),
  lifecycle('response.failed'),
  lifecycle('response.incomplete'),
  outputItem('response.output_item.added'),
  outputItem('response.output_item.done'),
  contentPart('response.content_part.added'),
  contentPart('response.content_part.done'),
  ErrorEvent,
)
