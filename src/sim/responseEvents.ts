import { itemEvents, type EventBody } from './itemEvents.js'
import type { StoredResponse } from './responseModel.js'
import { snapshotOf } from './responseSnapshot.js'

/** One stream event: its JSON repeats the SSE `event` name as `type`, and numbers it. */
export interface SseEvent {
  readonly type: string
  readonly sequence_number: number
  readonly [field: string]: unknown
}

/**
 * Every stream event of a response, numbered from 0: `response.created`,
 * `response.queued` (background only), `response.in_progress`, then either
 * `response.failed`, or each output item's events and `response.completed`
 * (`response.incomplete` when `max_output_tokens` cut it). They are the
 * response's history: its stream sends them, and its snapshot at any moment
 * is what those sent so far have built (see `snapshotNow`).
 */
export function eventsOf(response: StoredResponse): SseEvent[] {
  if (response.outcome === 'failed') return numbered([...opening(response), closing(response)])
  return numbered([...opening(response), ...response.items.flatMap((item, index) => itemEvents(item, index)), closing(response)])
}

function numbered(bodies: EventBody[]): SseEvent[] {
  return bodies.map(({ type, ...rest }, sequence_number) => ({ type, sequence_number, ...rest }))
}

function opening(response: StoredResponse): EventBody[] {
  const first = response.background ? 'queued' : 'in_progress'
  return [
    { type: 'response.created', response: snapshotOf(response, first) },
    ...(response.background ? [{ type: 'response.queued', response: snapshotOf(response, 'queued') }] : []),
    { type: 'response.in_progress', response: snapshotOf(response, 'in_progress') },
  ]
}

function closing(response: StoredResponse): EventBody {
  return { type: `response.${response.outcome}`, response: snapshotOf(response, response.outcome) }
}
