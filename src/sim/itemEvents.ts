import { contentPart, itemJson, summaryPart } from './responseItems.js'
import type { PlannedItem } from './responseModel.js'

/** An event before numbering: its `type` and its other fields. */
export type EventBody = { readonly type: string } & Record<string, unknown>

/**
 * The stream events of one output item at `output_index`, in the OpenAI
 * Responses order: `response.output_item.added`, its content events, and
 * `response.output_item.done` whose item matches what the deltas built.
 */
export function itemEvents(item: PlannedItem, output_index: number): EventBody[] {
  const item_id = item.id
  const inner =
    item.kind === 'reasoning' ? reasoningEvents(item, item_id, output_index) : item.kind === 'function_call' ? callEvents(item, item_id, output_index) : messageEvents(item, item_id, output_index)
  return [
    { type: 'response.output_item.added', output_index, item: itemJson(item, 'added') },
    ...inner,
    { type: 'response.output_item.done', output_index, item: itemJson(item, 'done') },
  ]
}

/** Per summary part: part added, text deltas, text done, part done; each with its `summary_index`. */
function reasoningEvents(item: Extract<PlannedItem, { kind: 'reasoning' }>, item_id: string, output_index: number): EventBody[] {
  return item.parts.flatMap((pieces, summary_index) => {
    const at = { item_id, output_index, summary_index }
    const text = pieces.join('')
    return [
      { type: 'response.reasoning_summary_part.added', ...at, part: summaryPart('') },
      ...pieces.map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...at, delta })),
      { type: 'response.reasoning_summary_text.done', ...at, text },
      { type: 'response.reasoning_summary_part.done', ...at, part: summaryPart(text) },
    ]
  })
}

/** Argument deltas, then the whole arguments. */
function callEvents(item: Extract<PlannedItem, { kind: 'function_call' }>, item_id: string, output_index: number): EventBody[] {
  return [
    ...item.pieces.map((delta) => ({ type: 'response.function_call_arguments.delta', item_id, output_index, delta })),
    { type: 'response.function_call_arguments.done', item_id, output_index, name: item.name, arguments: item.pieces.join('') },
  ]
}

/** Content part added, text (or refusal) deltas and done, content part done. */
function messageEvents(item: Extract<PlannedItem, { kind: 'message' }>, item_id: string, output_index: number): EventBody[] {
  const at = { item_id, output_index, content_index: 0 }
  const text = item.pieces.join('')
  const refusal = item.part === 'refusal'
  return [
    { type: 'response.content_part.added', ...at, part: contentPart(item.part, '') },
    ...item.pieces.map((delta) => (refusal ? { type: 'response.refusal.delta', ...at, delta } : { type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
    refusal ? { type: 'response.refusal.done', ...at, refusal: text } : { type: 'response.output_text.done', ...at, text, logprobs: [] },
    { type: 'response.content_part.done', ...at, part: contentPart(item.part, text) },
  ]
}
