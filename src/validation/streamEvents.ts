import * as v from 'valibot'
import { AUDIO_EVENTS } from './audioEvents.js'
import { parsePayload } from './check.js'
import { seq } from './eventSchema.js'
import { compileCheck, type FastCheck } from './fastCheck.js'
import { LIFECYCLE_EVENTS } from './lifecycleEvents.js'
import type { UnknownType } from './otherType.js'
import { REASONING_EVENTS } from './reasoningEvents.js'
import { TEXT_EVENTS } from './textEvents.js'
import { TOOL_EVENTS } from './toolEvents.js'

// One schema per event type of the OpenAI Responses streaming reference,
// looked up by the event's `type` in O(1): a stream carries tens of thousands
// of deltas, so no event is tried against more than its own schema. The
// schemas are declared by family in lifecycleEvents.ts, textEvents.ts,
// reasoningEvents.ts, toolEvents.ts and audioEvents.ts.

const schemas = { ...LIFECYCLE_EVENTS, ...TEXT_EVENTS, ...REASONING_EVENTS, ...TOOL_EVENTS, ...AUDIO_EVENTS }

type KnownType = keyof typeof schemas

/** Any event whose type this version models; narrow it with `event.type`. */
export type KnownStreamEvent = { [K in KnownType]: v.InferOutput<(typeof schemas)[K]> }[KnownType]

/** The event of one type, e.g. `StreamEvent<'response.function_call_arguments.done'>`. */
export type StreamEvent<T extends KnownType> = Extract<
  KnownStreamEvent,
  {
    /** The event type to pick. */
    type: T
  }
>

/**
 * Every event type this version models.
 *
 * @useDeclaredType
 */
export type KnownEventType = KnownType

/**
 * The `type` of an event this version does not model. At run time it is the
 * event's own type string (read it with `String(event.type)`); it is typed
 * apart so that `event.type === '…'` still narrows the known events.
 */
export type UnknownEventType = UnknownType

/** An event of a type this version does not model, passed through as it came. */
export interface UnknownStreamEvent {
  /** Its type, one this version does not model. */
  readonly type: UnknownEventType
  /** Its position in the stream, when the server numbers events. */
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

// A stream carries tens of thousands of deltas, in long runs of one type.
// Each type's check is derived once from its schema (see `compileCheck`),
// without the `type` literal: finding the schema by `type` has matched it
// already. A payload the check refuses goes to valibot, which names the
// broken fields; where there is no derived check (the browser build), every
// payload does.
const refuse: FastCheck = () => false
const checks = new Map<string, FastCheck>()
const checkUnknown = /* @__PURE__ */ compileCheck(UnknownEvent) ?? refuse

function checkOf(type: KnownType): FastCheck {
  let check = checks.get(type)
  if (!check) checks.set(type, (check = compileCheck(v.omit(schemas[type] as EventSchema, ['type'])) ?? refuse))
  return check
}
type EventSchema = v.LooseObjectSchema<v.ObjectEntries, undefined>

/**
 * Validates one parsed stream payload against the schema of its `type`.
 * Unknown types pass through with only `type` checked. A payload that breaks
 * its type's rules throws `ValidationError`, naming each broken field.
 */
export function parseStreamEvent(json: unknown): ResponseStreamEvent {
  const type = (json as { type?: unknown } | null)?.type
  // Comparing with the last type is cheaper than hashing it; the Map holds known types only,
  // so a server that invents types cannot grow it.
  if (type !== lastType) {
    const known = typeof type === 'string' && Object.hasOwn(schemas, type)
    lastSchema = known ? schemas[type as KnownType] : UnknownEvent
    lastCheck = known ? checkOf(type as KnownType) : checkUnknown
    lastType = known ? type : undefined
  }
  return lastCheck(json) ? (json as ResponseStreamEvent) : (parsePayload(lastSchema, json, 'stream event') as ResponseStreamEvent)
}
let lastType: unknown
let lastSchema: v.GenericSchema<unknown, unknown> = UnknownEvent
let lastCheck: FastCheck = refuse
