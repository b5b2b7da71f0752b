import * as v from 'valibot'
import { ContentPartSchema, OutputItemSchema, ResponseSchema } from './response.js'
import { parsePayload } from './check.js'
import { compileCheck } from './fastCheck.js'

// One schema per event type, looked up by the event's `type` in O(1): a
// stream carries tens of thousands of deltas, so no event is tried against
// more than its own schema.

const seq = v.optional(v.number())
const int = v.pipe(v.number(), v.integer())

/* @__NO_SIDE_EFFECTS__ */
function lifecycle<T extends string>(type: T) {
  return v.looseObject({ type: v.literal(type), sequence_number: seq, response: ResponseSchema })
}

/* @__NO_SIDE_EFFECTS__ */
function outputItem<T extends string>(type: T) {
  return v.looseObject({ type: v.literal(type), sequence_number: seq, output_index: int, item: OutputItemSchema })
}

/* @__NO_SIDE_EFFECTS__ */
function contentPart<T extends string>(type: T) {
  return v.looseObject({
    type: v.literal(type),
    sequence_number: seq,
    item_id: v.string(),
    output_index: int,
    content_index: int,
    part: ContentPartSchema,
  })
}

/* @__NO_SIDE_EFFECTS__ */
function delta<T extends string>(type: T) {
  return v.looseObject({ type: v.literal(type), sequence_number: seq, item_id: v.optional(v.string()), delta: v.string() })
}

const TextDelta = v.looseObject({
  type: v.literal('response.output_text.delta'),
  sequence_number: seq,
  item_id: v.string(),
  output_index: int,
  content_index: int,
  delta: v.string(),
})

const TextDone = v.looseObject({
  type: v.literal('response.output_text.done'),
  sequence_number: seq,
  item_id: v.string(),
  output_index: int,
  content_index: int,
  text: v.string(),
})

const errorFields = {
  code: v.nullish(v.union([v.string(), v.number()])),
  message: v.nullish(v.string()),
  param: v.nullish(v.string()),
}

/** The `error` event, flat (`code`, `message`) or nested (`error: { code, message }`). */
const ErrorEvent = v.looseObject({
  type: v.literal('error'),
  sequence_number: seq,
  ...errorFields,
  error: v.nullish(v.looseObject({ type: v.nullish(v.string()), ...errorFields })),
})

const schemas = {
  'response.created': lifecycle('response.created'),
  'response.queued': lifecycle('response.queued'),
  'response.in_progress': lifecycle('response.in_progress'),
  'response.completed': lifecycle('response.completed'),
  'response.failed': lifecycle('response.failed'),
  'response.incomplete': lifecycle('response.incomplete'),
  'response.output_item.added': outputItem('response.output_item.added'),
  'response.output_item.done': outputItem('response.output_item.done'),
  'response.content_part.added': contentPart('response.content_part.added'),
  'response.content_part.done': contentPart('response.content_part.done'),
  'response.output_text.delta': TextDelta,
  'response.output_text.done': TextDone,
  'response.refusal.delta': delta('response.refusal.delta'),
  'response.reasoning_summary_text.delta': delta('response.reasoning_summary_text.delta'),
  'response.reasoning_text.delta': delta('response.reasoning_text.delta'),
  'response.function_call_arguments.delta': delta('response.function_call_arguments.delta'),
  error: ErrorEvent,
} as const

type KnownType = keyof typeof schemas

/** Any event whose type this version models; narrow it with `event.type`. */
export type KnownStreamEvent = { [K in KnownType]: v.InferOutput<(typeof schemas)[K]> }[KnownType]

declare const unknownEventType: unique symbol
/**
 * The `type` of an event this version does not model. At run time it is the
 * event's own type string (read it with `String(event.type)`); it is typed
 * apart so that `event.type === '…'` still narrows the known events.
 */
export type UnknownEventType = { readonly [unknownEventType]: 'a stream event type this version does not model' }

/** An event of a type this version does not model, passed through as it came. */
export interface UnknownStreamEvent {
  readonly type: UnknownEventType
  readonly sequence_number?: number
  readonly [field: string]: unknown
}

/** One event of a streamed response. */
export type ResponseStreamEvent = KnownStreamEvent | UnknownStreamEvent

/** The stream event types that end a response. */
export type TerminalEventType = 'response.completed' | 'response.failed' | 'response.incomplete'

const UnknownEvent = v.looseObject({ type: v.string(), sequence_number: seq })

/** Returns the schema for an event type: its own one, or the pass-through schema for unknown types. */
export function streamEventSchema(type: string): v.GenericSchema<unknown, unknown> {
  return Object.hasOwn(schemas, type) ? schemas[type as KnownType] : UnknownEvent
}

/** Validates one payload against one schema: the derived no-copy check first, valibot when it refuses. */
function decoderFor(schema: v.GenericSchema<unknown, unknown>): (json: unknown) => ResponseStreamEvent {
  const check = compileCheck(schema)
  return (json) => (check?.(json) ? (json as ResponseStreamEvent) : (parsePayload(schema, json, 'stream event') as ResponseStreamEvent))
}

// A stream carries tens of thousands of deltas: each event finds its decoder
// in one Map lookup. Only known types are kept, so a server that invents
// types cannot grow the map.
const decoders = new Map<string, (json: unknown) => ResponseStreamEvent>()
const decodeUnknown = /* @__PURE__ */ decoderFor(UnknownEvent)

/**
 * Validates one parsed stream payload against the schema of its `type`.
 * Unknown types pass through with only `type` checked.
 */
export function parseStreamEvent(json: unknown): ResponseStreamEvent {
  const type = (json as { type?: unknown } | null)?.type
  // Deltas come in long runs: comparing with the last type is cheaper than hashing it.
  if (type === lastType) return lastDecode(json)
  let decode = typeof type === 'string' ? decoders.get(type) : undefined
  if (!decode) {
    if (typeof type !== 'string' || !Object.hasOwn(schemas, type)) return decodeUnknown(json)
    decoders.set(type, (decode = decoderFor(schemas[type as KnownType])))
  }
  lastType = type
  lastDecode = decode
  return decode(json)
}
let lastType: unknown
let lastDecode: (json: unknown) => ResponseStreamEvent = decodeUnknown
