import { field } from './checkKit.js'
import type { SimTiming } from './options.js'
import { eventsOf, type SseEvent } from './responseEvents.js'
import type { StoredResponse } from './responseModel.js'
import { stateAfter } from './responseState.js'

/**
 * How far a stored response has got at simulated time `now`: the
 * `sequence_number` of its last event that has happened.
 * - Cancelled, or while a stream that moves it is being written: as far
 *   as its streams have sent (the clock does not overtake a stream).
 * - Otherwise, in the foreground: finished. A model does not stop when the
 *   reader of its stream leaves.
 * - Otherwise, in the background: as far as its streams got, or as far as
 *   the clock has moved it if that is further: `queued` for `pendingMs`,
 *   then `in_progress` (no output yet) for `processingMs`, then finished.
 *
 * @example
 * ```ts
 * const events = eventsOf(response) // background, not streamed: created, queued, in_progress, …, completed
 * positionOf(response, events, response.createdMs, { pendingMs: 400, processingMs: 1_100 }) // 1: queued
 * positionOf(response, events, response.createdMs + 2_000, { pendingMs: 400, processingMs: 1_100 }) // events.length - 1
 * ```
 */
export function positionOf(response: StoredResponse, events: readonly SseEvent[], now: number, timing: SimTiming): number {
  const { reached, streams, cancelled } = response.progress
  if (cancelled || streams > 0) return Math.max(0, reached)
  const last = events.length - 1
  if (!response.background) return last
  const elapsed = now - response.createdMs
  const clock = elapsed < timing.pendingMs ? indexOf(events, 'response.queued') : elapsed < timing.pendingMs + timing.processingMs ? indexOf(events, 'response.in_progress') : last
  return Math.max(reached, clock)
}

/**
 * The Response object at `now`, as a `GET` returns it: what its events up to
 * its position have built (see `stateAfter`), with status `cancelled` once
 * cancelled.
 *
 * @example
 * ```ts
 * snapshotNow(response, env.clock.now(), env.settings.timing).status // 'in_progress' while its stream sends the text
 * ```
 */
export function snapshotNow(response: StoredResponse, now: number, timing: SimTiming): Record<string, unknown> {
  const events = eventsOf(response)
  const state = stateAfter(events, positionOf(response, events, now, timing))
  return response.progress.cancelled ? { ...state, status: 'cancelled' } : state
}

/** Counts one more stream of the response being written, from where it is now on: until `release`, only streams move it. */
export function hold(response: StoredResponse, now: number, timing: SimTiming): void {
  response.progress.reached = positionOf(response, eventsOf(response), now, timing)
  response.progress.streams += 1
}

/** Ends what `hold` began (and what a streamed creation began when drafted). */
export function release(response: StoredResponse): void {
  response.progress.streams -= 1
}

/**
 * Whether a stream may send event `sequence` now: not past a cancel. A
 * stream that `moves` the response (see `movedByStreams`) moves it on to
 * the event as it goes, just before the event is written.
 */
export function sendNext(response: StoredResponse, sequence: number, moves: boolean): boolean {
  const progress = response.progress
  if (progress.cancelled) return sequence <= progress.reached
  if (moves) progress.reached = Math.max(progress.reached, sequence)
  return true
}

/**
 * Whether streams move the response on: those created with `stream: true`,
 * which are generated as their stream (or a resumed one) is sent. One
 * created without moves on the clock alone, and a stream of it replays its
 * events as planned.
 */
export function movedByStreams(response: StoredResponse): boolean {
  return field(response.request, 'stream') === true
}

/**
 * Cancels a background response that has not finished: it stops where it
 * is, though never before its opening events (`created`, `queued`,
 * `in_progress`), as a cancelled response has started. A finished one is
 * left as it is, and so is one already cancelled.
 *
 * @example
 * ```ts
 * cancel(response, env.clock.now(), env.settings.timing)
 * snapshotNow(response, env.clock.now(), env.settings.timing).status // 'cancelled', or 'completed' if it had finished
 * ```
 */
export function cancel(response: StoredResponse, now: number, timing: SimTiming): void {
  const events = eventsOf(response)
  const at = positionOf(response, events, now, timing)
  if (response.progress.cancelled || at === events.length - 1) return
  response.progress.reached = Math.max(at, indexOf(events, 'response.in_progress'))
  response.progress.cancelled = true
}

/** The events a stream of the response may send: all of them, or those up to its cancel. */
export function sendable(response: StoredResponse): SseEvent[] {
  const events = eventsOf(response)
  return response.progress.cancelled ? events.slice(0, response.progress.reached + 1) : events
}

function indexOf(events: readonly SseEvent[], type: string): number {
  return events.findIndex((event) => event.type === type)
}
