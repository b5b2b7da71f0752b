import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { apiError, type SimHttpError } from '../sim/apiError.js'
import { rateLimitError, serverError } from '../sim/gatewayErrors.js'
import type { TestFault } from './types.js'

/** The routes a request belongs to: a streamed creation is both a creation and a stream. */
export type RouteKinds = ReadonlySet<NonNullable<TestFault['route']>>

/** Picks the scripted failure of each request, counting the requests of each fault's route. */
export interface FaultScript {
  /** The error that answers a request of these routes, if a fault hits it. */
  next(kinds: RouteKinds): SimHttpError | undefined
}

/**
 * The faults of a test gateway. Each counts the requests of its route: it
 * lets `after` of them through, then answers the next `times` with its
 * status, in the simulator's error shapes (`rateLimitError` for 429, its
 * server error for 5xx). The first fault that hits a request answers it.
 * A fault that is not one is an {@link InvalidRequestError}, at once.
 */
export function faultScript(faults: readonly TestFault[] = []): FaultScript {
  const issues: RequestIssue[] = []
  faults.forEach((fault, i) => {
    if (!Number.isInteger(fault?.status) || fault.status < 400 || fault.status > 599) issues.push({ path: `faults[${i}].status`, message: `must be an HTTP error status from 400 to 599 (got ${fault?.status})` })
    for (const name of ['after', 'times'] as const) {
      const value = fault?.[name]
      if (value !== undefined && !(Number.isInteger(value) && value >= 0)) issues.push({ path: `faults[${i}].${name}`, message: `must be an integer of at least 0 (got ${value})` })
    }
  })
  if (issues.length > 0) throw new InvalidRequestError(issues, 'test gateway options')
  const seen = faults.map(() => 0)
  return {
    next(kinds) {
      let hit: TestFault | undefined
      faults.forEach((fault, i) => {
        if (!kinds.has(fault.route ?? 'any')) return
        const n = seen[i]!++
        const after = fault.after ?? 0
        if (!hit && n >= after && n < after + (fault.times ?? 1)) hit = fault
      })
      return hit && errorOf(hit)
    },
  }
}

function errorOf({ status, retryAfter }: TestFault): SimHttpError {
  if (status === 429) return rateLimitError('rate_limit_exceeded', retryAfter ?? '1')
  const error = status >= 500 ? serverError(status, 'a scripted fault of the test gateway') : apiError(status, `A scripted fault of the test gateway (status ${status}).`, 'test_fault')
  return retryAfter === undefined ? error : Object.assign(error, { headers: { ...error.headers, 'retry-after': retryAfter } })
}
