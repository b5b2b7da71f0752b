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
