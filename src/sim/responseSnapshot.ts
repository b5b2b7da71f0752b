import { field } from './checkKit.js'
import { itemJson, outputTextOf } from './responseItems.js'
import { FAIL_MARKER, type SimResponseStatus, type StoredResponse } from './responseModel.js'

/**
 * The Response object in a given status, as the lifecycle events carry it
 * (a JSON reply is built from those events: see `snapshotNow`). Only a
 * finished one carries output, `output_text` and usage (a failed one
 * carries usage and its `error`).
 */
export function snapshotOf(response: StoredResponse, status: SimResponseStatus): Record<string, unknown> {
  const get = (key: string, fallback: unknown) => field(response.request, key) ?? fallback
  const finished = status === 'completed' || status === 'incomplete'
  return {
    id: response.id,
    object: 'response',
    created_at: Math.floor(response.createdMs / 1000),
    status,
    background: response.background,
    error: status === 'failed' ? { code: 'server_error', message: `The simulator failed this response: its input holds the ${FAIL_MARKER} marker.` } : null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: get('instructions', null),
    max_output_tokens: get('max_output_tokens', null),
    max_tool_calls: get('max_tool_calls', null),
    metadata: get('metadata', {}),
    model: response.model,
    output: finished ? response.items.map((item) => itemJson(item, 'done')) : [],
    ...(finished ? { output_text: outputTextOf(response) } : {}),
    parallel_tool_calls: get('parallel_tool_calls', true),
    previous_response_id: get('previous_response_id', null),
    reasoning: get('reasoning', { effort: null, summary: null }),
    store: get('store', true),
    temperature: get('temperature', 1),
    text: get('text', { format: { type: 'text' } }),
    tool_choice: get('tool_choice', 'auto'),
    tools: get('tools', []),
    top_logprobs: get('top_logprobs', 0),
    top_p: get('top_p', 1),
    truncation: get('truncation', 'disabled'),
    usage: finished || status === 'failed' ? response.usage : null,
    user: get('user', null),
  }
}
