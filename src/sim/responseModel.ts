/** The marker that makes a response fail: `[fail]` in its input or instructions. */
export const FAIL_MARKER = '[fail]'

/** The marker that makes a response a refusal: `[refuse]` in its input or instructions. */
export const REFUSE_MARKER = '[refuse]'

/**
 * The marker that makes the model write a short message before each of its
 * function calls, in the same response, as many real models do:
 * `[preamble]` anywhere in the conversation (this request or one it continues).
 */
export const PREAMBLE_MARKER = '[preamble]'

/**
 * The marker that makes the first call of each tool carry arguments that
 * break the tool's JSON schema: `[bad-args]` anywhere in the conversation.
 * Given back an error for it, the model calls the tool again, correctly.
 */
export const BAD_ARGS_MARKER = '[bad-args]'

/** Statuses a simulated response goes through. */
export type SimResponseStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled'

/** An output item as planned at creation: its content as the pieces (tokens) to stream. */
export type PlannedItem =
  | { readonly kind: 'reasoning'; readonly id: string; readonly parts: readonly (readonly string[])[]; readonly incomplete?: boolean }
  | { readonly kind: 'function_call'; readonly id: string; readonly callId: string; readonly name: string; readonly pieces: readonly string[]; readonly incomplete?: boolean }
  | { readonly kind: 'message'; readonly id: string; readonly part: 'output_text' | 'refusal'; readonly pieces: readonly string[]; readonly incomplete?: boolean }

/**
 * How far a stored response has got, as its streams and the simulated clock
 * move it (see `positionOf`): the one record that its stream, its snapshot
 * and a cancel all read.
 */
export interface ResponseProgress {
  /** The `sequence_number` of the last of its events that a stream sent (−1: none yet). */
  reached: number
  /** Streams of it being written now. While one is, the response is exactly as far as they are. */
  streams: number
  /** Set by a cancel: the response stays where it was. */
  cancelled: boolean
}

/** A response as the simulator keeps it: all of its content is decided at creation, its progress moves. */
export interface StoredResponse {
  readonly id: string
  /** Simulated creation time, epoch ms. */
  readonly createdMs: number
  /** The checked request body. */
  readonly request: Readonly<Record<string, unknown>>
  readonly model: string
  readonly items: readonly PlannedItem[]
  readonly usage: Record<string, unknown>
  /** The status it ends in: `incomplete` when `max_output_tokens` cut it. */
  readonly outcome: 'completed' | 'incomplete' | 'failed'
  readonly background: boolean
  readonly progress: ResponseProgress
}

/** The pieces of an item, summary parts flattened. */
export function piecesOfItem(item: PlannedItem): readonly string[] {
  return item.kind === 'reasoning' ? item.parts.flat() : item.pieces
}
