import { messageItem, snapshotOf, textPart, type StoredResponse } from './responseModel.js'
import type { SseEvent } from './sse.js'

type Fields = { readonly type: string } & Record<string, unknown>

/**
 * Every stream event of a response, in the OpenAI Responses shapes, numbered
 * from 0: `response.created`, `response.queued` (background only),
 * `response.in_progress`, then either `response.failed`, or the message item
 * and its part opening, one `response.output_text.delta` per piece, their
 * closing, and `response.completed` (or `response.incomplete` when cut by
 * `max_output_tokens`).
 */
export function eventsOf(response: StoredResponse): SseEvent[] {
  const bodies = [...opening(response), ...(response.outcome === 'failed' ? [] : output(response)), closing(response)]
  return numbered(bodies)
}

/**
 * The events of a response cancelled while in the background: its opening
 * ones only, as output never started.
 */
export function cancelledEventsOf(response: StoredResponse): SseEvent[] {
  return numbered(opening(response))
}

function numbered(bodies: Fields[]): SseEvent[] {
  return bodies.map(({ type, ...rest }, sequence_number) => ({ type, sequence_number, ...rest }))
}

function opening(response: StoredResponse): Fields[] {
  const first = response.background ? 'queued' : 'in_progress'
  return [
    { type: 'response.created', response: snapshotOf(response, first) },
    ...(response.background ? [{ type: 'response.queued', response: snapshotOf(response, 'queued') }] : []),
    { type: 'response.in_progress', response: snapshotOf(response, 'in_progress') },
  ]
}

function output(response: StoredResponse): Fields[] {
  const at = { item_id: response.itemId, output_index: 0, content_index: 0 }
  const text = response.pieces.join('')
  return [
    { type: 'response.output_item.added', output_index: 0, item: messageItem(response, false) },
    { type: 'response.content_part.added', ...at, part: textPart('') },
    ...response.pieces.map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...at, text, logprobs: [] },
    { type: 'response.content_part.done', ...at, part: textPart(text) },
    { type: 'response.output_item.done', output_index: 0, item: messageItem(response, true) },
  ]
}

function closing(response: StoredResponse): Fields {
  const status = response.outcome
  return { type: `response.${status}`, response: snapshotOf(response, status) }
}
