import type { SimHttpError } from './apiError.js'
import type { Call } from './call.js'
import type { ChaosFault } from './faultTypes.js'
import { rateLimitError, serverError } from './gatewayErrors.js'

/** A chaos fault chosen for a request, and its second draw (for the frame a stream is cut at). */
export interface ChaosPick<F extends ChaosFault> {
  readonly fault: F
  readonly extra: number
}

/**
 * Takes the chaos draw of a request, if chaos picked it, and turns it into
 * one fault of `pool` (the faults that fit the route; see `CHAOS_FAULTS`).
 * The draw is used once: later calls for the same request get nothing.
 *
 * @example
 * ```ts
 * const picked = takeChaos(call, CHAOS_FAULTS.taskRead) // e.g. { fault: 'badPollReply:html', extra: 0.4 }
 * ```
 */
export function takeChaos<F extends ChaosFault>(call: Call, pool: readonly F[]): ChaosPick<F> | undefined {
  const draw = call.chaos
  if (!draw || pool.length === 0) return undefined
  call.chaos = undefined
  const fault = pool[Math.min(pool.length - 1, Math.floor(draw.pick * pool.length))]!
  call.note(fault, 'chaos')
  return { fault, extra: draw.extra }
}

/** The HTTP error of a chaos fault that is one (429 with `Retry-After: 1`, 503, 500); undefined for the others. */
export function chaosError(fault: ChaosFault | undefined): SimHttpError | undefined {
  if (fault === 'rateLimit') return rateLimitError('rate_limit_exceeded', '1')
  if (fault === 'serviceUnavailable') return serverError(503, 'chaos')
  if (fault === 'serverError') return serverError(500, 'chaos')
  return undefined
}

/** The frame (1 to 6) a chaos stream fault cuts, from the request's second draw. */
export function chaosFrame(extra: number): number {
  return 1 + Math.floor(extra * 6)
}
