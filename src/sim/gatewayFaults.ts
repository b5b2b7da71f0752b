import type { Call, Route } from './call.js'
import { chaosError, takeChaos } from './chaos.js'
import type { SimEnv } from './env.js'
import { CHAOS_FAULTS } from './faultTypes.js'
import { rateLimitError, serverError } from './gatewayErrors.js'
import { sendHugeError } from './hugeError.js'

/**
 * Applies the gateway-wide faults to one authenticated gateway request:
 * counts it, waits `latencyMs`, then answers the 429 of an empty per-second
 * bucket or of `rateLimit`, the 5xx of `serverErrors`, or the huge 500 of
 * `hugeErrorBody`. Chaos on a route of kind `other` answers 500 or 429 here;
 * on other routes the draw is left on `call.chaos` for the route, which
 * knows which faults fit. Returns true when it has answered the request.
 */
export async function applyGatewayFaults(call: Call, env: SimEnv, route: Route): Promise<boolean> {
  const arrival = env.faults.arrive(env.clock.now())
  const faults = env.faults.current
  if (faults.latencyMs) await env.clock.sleep(faults.latencyMs, call.signal)
  if (faults.hugeReply) call.hugeReplyBytes = faults.hugeReply.bytes
  if (arrival.throttledForMs !== undefined) {
    call.note('rateLimitPerSecond')
    throw rateLimitError('rate_limit_exceeded', faults.rateLimitPerSecond?.retryAfter ?? String(Math.max(1, Math.ceil(arrival.throttledForMs / 1000))))
  }
  const planned = arrival.planned
  if (planned?.kind === 'rateLimit') {
    call.note('rateLimit')
    const code = faults.rateLimit?.code ?? 'rate_limit_exceeded'
    throw rateLimitError(code, faults.rateLimit?.retryAfter ?? (code === 'insufficient_quota' ? undefined : '1'))
  }
  if (planned?.kind === 'serverError') {
    call.note('serverErrors')
    throw serverError(planned.status, 'serverErrors fault')
  }
  if (planned?.kind === 'hugeErrorBody') {
    call.note('hugeErrorBody')
    await sendHugeError(call, planned.bytes)
    return true
  }
  if (arrival.chaos) {
    call.chaos = arrival.chaos
    if ((route.kind?.(call) ?? 'other') === 'other') {
      const error = chaosError(takeChaos(call, CHAOS_FAULTS.other)?.fault)
      if (error) throw error
    }
  }
  return false
}
