import { apiError, SimHttpError } from './apiError.js'

// The error replies of the gateway-wide faults and of chaos, as values: the
// in-process test gateway (rxgate/testing) answers with them too, so nothing
// here writes to a socket (the huge error body is in hugeError.ts).

/**
 * The 429 of a rate limit, with `Retry-After` (seconds or an HTTP date) when
 * given. `insufficient_quota` is OpenAI's out-of-credit answer, word for
 * word: a 429 that no retry fixes.
 */
export function rateLimitError(code: 'rate_limit_exceeded' | 'insufficient_quota', retryAfter: string | undefined): SimHttpError {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter }
  if (code === 'insufficient_quota') {
    return apiError(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', { type: 'insufficient_quota', headers })
  }
  return apiError(429, 'Rate limit reached (simulated): retry after the Retry-After delay.', 'rate_limit_exceeded', { type: 'rate_limit_error', headers })
}

/** A 5xx the simulator answers on purpose, saying which fault chose it. */
export function serverError(status: number, why: string): SimHttpError {
  return apiError(status, `The simulator failed this request on purpose (${why}, status ${status}).`, 'server_error')
}
