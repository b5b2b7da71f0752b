import type { PlannedItem, StoredResponse } from './responseModel.js'

type Json = Record<string, unknown>

/**
 * An output item in the OpenAI Responses shape: `'added'` is the empty
 * item a stream opens with, `'done'` the finished one (as in the final
 * response's `output`).
 */
export function itemJson(item: PlannedItem, state: 'added' | 'done'): Json {
  const done = state === 'done'
  const status = done ? (item.incomplete ? 'incomplete' : 'completed') : 'in_progress'
  switch (item.kind) {
    case 'reasoning':
      return { id: item.id, type: 'reasoning', summary: done ? item.parts.map((part) => summaryPart(part.join(''))) : [] }
    case 'function_call':
      return { id: item.id, type: 'function_call', status, arguments: done ? item.pieces.join('') : '', call_id: item.callId, name: item.name }
    case 'message':
      return { id: item.id, type: 'message', status, role: 'assistant', content: done ? [contentPart(item.part, item.pieces.join(''))] : [] }
  }
}

/** A message content part: `output_text` (with empty annotations and logprobs) or `refusal`. */
export function contentPart(kind: 'output_text' | 'refusal', text: string): Json {
  return kind === 'refusal' ? { type: 'refusal', refusal: text } : { type: 'output_text', text, annotations: [], logprobs: [] }
}

/** A reasoning summary part. */
export function summaryPart(text: string): Json {
  return { type: 'summary_text', text }
}

/** The concatenated text of every `output_text` part (refusals and calls excluded), `''` when there is none. */
export function outputTextOf(response: StoredResponse): string {
  return response.items
    .filter((item) => item.kind === 'message' && item.part === 'output_text')
    .map((item) => (item.kind === 'message' ? item.pieces.join('') : ''))
    .join('')
}
