import type { SimEnv } from './env.js'
import { apiError, type Call } from './http.js'
import type { SimFaults } from './options.js'

/** What the fault plan decided for one gateway request. */
export type FaultVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'rateLimit'; readonly retryAfter: string }
  | { readonly kind: 'serverError'; readonly status: number }

/** The current faults and the request counter that makes them deterministic. */
export interface FaultPlan {
  /** The faults in force. */
  readonly current: SimFaults
  /** Replaces the faults and restarts the request count. */
  set(faults: SimFaults): void
  /** Counts one gateway request and says whether it must fail. */
  next(): FaultVerdict
}

/** Creates a fault plan starting with `initial`. */
export function createFaultPlan(initial: SimFaults = {}): FaultPlan {
  let faults = check(initial)
  let count = 0
  return {
    get current() {
      return faults
    },
    set(next) {
      faults = check(next)
      count = 0
    },
    next() {
      count += 1
      const { rateLimit, serverErrors } = faults
      if (rateLimit && count % rateLimit.every === 0) return { kind: 'rateLimit', retryAfter: rateLimit.retryAfter }
      if (serverErrors && count % serverErrors.every === 0) return { kind: 'serverError', status: serverErrors.status ?? 500 }
      return { kind: 'none' }
    },
  }
}

function check(faults: SimFaults): SimFaults {
  const counts: [string, number | undefined, number][] = [
    ['latencyMs', faults.latencyMs, 0],
    ['rateLimit.every', faults.rateLimit?.every, 1],
    ['serverErrors.every', faults.serverErrors?.every, 1],
    ['resetStreamAfter', faults.resetStreamAfter, 0],
    ['malformedFrameAt', faults.malformedFrameAt, 1],
  ]
  for (const [name, value, min] of counts) {
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
      throw new RangeError(`faults.${name} must be an integer of at least ${min} (got ${value})`)
    }
  }
  const status = faults.serverErrors?.status
  if (status !== undefined && !(Number.isInteger(status) && status >= 500 && status <= 599)) {
    throw new RangeError(`faults.serverErrors.status must be a 5xx status (got ${status})`)
  }
  return { ...faults }
}

/**
 * Applies the faults to one authenticated gateway request: waits
 * `latencyMs`, then throws the 429 or 5xx this request is picked for.
 */
export async function applyFaults(call: Call, env: SimEnv): Promise<void> {
  const verdict = env.faults.next()
  const { latencyMs } = env.faults.current
  if (latencyMs) await env.clock.sleep(latencyMs, call.signal)
  if (verdict.kind === 'rateLimit') {
    const message = 'Rate limit reached (simulated): retry after the Retry-After delay.'
    throw apiError(429, message, 'rate_limit_exceeded', { type: 'rate_limit_error', headers: { 'retry-after': verdict.retryAfter } })
  }
  if (verdict.kind === 'serverError') {
    throw apiError(verdict.status, `The simulator failed this request on purpose (serverErrors fault, status ${verdict.status}).`, 'server_error')
  }
}
