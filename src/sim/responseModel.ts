import { randomBytes } from 'node:crypto'
import type { ResponseRequest } from '../validation/responseRequest.js'
import type { SimTiming } from './options.js'
import { countWords, piecesOf, promptOf, replyTo, usageOf } from './text.js'

/** Statuses a simulated response goes through. */
export type SimResponseStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled'

/** A response as the simulator keeps it: all of its content is decided at creation. */
export interface StoredResponse {
  readonly id: string
  readonly itemId: string
  /** Simulated creation time, epoch ms. */
  readonly createdMs: number
  readonly request: ResponseRequest
  /** The deltas to stream, joined they give the text. */
  readonly pieces: readonly string[]
  readonly usage: Record<string, unknown>
  /** The status it ends in. */
  readonly outcome: 'completed' | 'incomplete' | 'failed'
  readonly background: boolean
  /** Simulated time at which it was cancelled, if it was. */
  cancelledMs?: number
}

/** The marker that makes a response fail. */
export const FAIL_MARKER = '[fail]'

/**
 * Decides a response's content from its request: the reply text (see
 * `replyTo`), cut to `max_output_tokens` pieces (then `incomplete`), or a
 * failure when the input or instructions hold {@link FAIL_MARKER}.
 */
export function draftResponse(request: ResponseRequest, createdMs: number, usageShape: 'spec' | 'openai'): StoredResponse {
  const prompt = promptOf(request.input, request.instructions)
  const all = piecesOf(replyTo(prompt))
  const max = request.max_output_tokens ?? Infinity
  const failed = prompt.includes(FAIL_MARKER)
  const pieces = failed ? [] : all.slice(0, max)
  return {
    id: `resp_${randomBytes(24).toString('hex')}`,
    itemId: `msg_${randomBytes(24).toString('hex')}`,
    createdMs,
    request,
    pieces,
    usage: usageOf(countWords(prompt), pieces.length, usageShape),
    outcome: failed ? 'failed' : pieces.length < all.length ? 'incomplete' : 'completed',
    background: request.background === true,
  }
}

/** The status at simulated time `now`: background responses are queued, then in progress, for the configured time. */
export function statusAt(response: StoredResponse, now: number, timing: SimTiming): SimResponseStatus {
  if (response.cancelledMs !== undefined) return 'cancelled'
  if (!response.background) return response.outcome
  const elapsed = now - response.createdMs
  if (elapsed < timing.pendingMs) return 'queued'
  return elapsed < timing.pendingMs + timing.processingMs ? 'in_progress' : response.outcome
}

/** The message output item; `done` gives it its text, otherwise it is the empty item a stream starts with. */
export function messageItem(response: StoredResponse, done: boolean): Record<string, unknown> {
  const status = done ? (response.outcome === 'incomplete' ? 'incomplete' : 'completed') : 'in_progress'
  return { id: response.itemId, type: 'message', status, role: 'assistant', content: done ? [textPart(response.pieces.join(''))] : [] }
}

/** An `output_text` content part. */
export function textPart(text: string): Record<string, unknown> {
  return { type: 'output_text', text, annotations: [], logprobs: [] }
}

/** The Response object in a given status; only a finished one carries output and usage. */
export function snapshotOf(response: StoredResponse, status: SimResponseStatus): Record<string, unknown> {
  const { request } = response
  const finished = status === 'completed' || status === 'incomplete'
  return {
    id: response.id,
    object: 'response',
    created_at: Math.floor(response.createdMs / 1000),
    status,
    background: response.background,
    error: status === 'failed' ? { code: 'server_error', message: `The simulator failed this response: its input holds the ${FAIL_MARKER} marker.` } : null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    metadata: request.metadata ?? {},
    model: request.model,
    output: finished ? [messageItem(response, true)] : [],
    ...(finished ? { output_text: response.pieces.join('') } : {}),
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: request.text ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? 'disabled',
    usage: finished || status === 'failed' ? response.usage : null,
    user: request.user ?? null,
  }
}
