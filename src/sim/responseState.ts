import { isObject } from './checkKit.js'
import type { SseEvent } from './responseEvents.js'

type Json = Record<string, unknown>

/**
 * The Response object as a response's events up to `position` (a
 * `sequence_number`) have built it, the way a client reading the stream
 * builds it: the `response` of the last lifecycle event sent (`created`,
 * `queued`, `in_progress`, or the final one, taken as it is), with the
 * items, parts and text that the events since have added. Deriving the
 * snapshot from the events, rather than beside them, is what keeps a `GET`
 * in step with the stream.
 *
 * @example
 * ```ts
 * const events = eventsOf(response)
 * stateAfter(events, events.length - 1) // the response of `response.completed`
 * stateAfter(events, 5).output // the message with the text of the first delta
 * ```
 */
export function stateAfter(events: readonly SseEvent[], position: number): Json {
  const sent = events.slice(0, Math.max(0, position) + 1)
  let opening = sent.length - 1
  while (opening > 0 && !isObject(sent[opening]!.response)) opening -= 1
  const state = structuredClone(sent[opening]!.response as Json)
  const output = state.output as Json[]
  for (const event of sent.slice(opening + 1)) apply(output, event)
  return state
}

/** Applies one item, part or text event to the output so far (other events change nothing). */
function apply(output: Json[], event: SseEvent): void {
  const index = event.output_index as number
  const item = output[index] as Json
  const list = (key: string) => item[key] as Json[]
  const append = (target: Json, key: string) => void (target[key] = `${String(target[key] ?? '')}${String(event.delta)}`)
  switch (event.type) {
    case 'response.output_item.added':
    case 'response.output_item.done':
      output[index] = structuredClone(event.item as Json)
      return
    case 'response.content_part.added':
    case 'response.content_part.done':
      list('content')[event.content_index as number] = structuredClone(event.part as Json)
      return
    case 'response.reasoning_summary_part.added':
    case 'response.reasoning_summary_part.done':
      list('summary')[event.summary_index as number] = structuredClone(event.part as Json)
      return
    case 'response.output_text.delta':
      return append(list('content')[event.content_index as number]!, 'text')
    case 'response.refusal.delta':
      return append(list('content')[event.content_index as number]!, 'refusal')
    case 'response.reasoning_summary_text.delta':
      return append(list('summary')[event.summary_index as number]!, 'text')
    case 'response.function_call_arguments.delta':
      return append(item, 'arguments')
  }
}
