import { apiError, SimHttpError } from './apiError.js'
import type { Call } from './call.js'
import { writeChunk, writeFill } from './write.js'

// The error replies of the gateway-wide faults and of chaos.

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

const HEAD = '{"error":{"message":"The simulator sends a huge error body on purpose (hugeErrorBody fault): '
const TAIL = '","type":"server_error","param":null,"code":"server_error"}}'

/**
 * Answers 500 with a JSON error body of `bytes` bytes (its message padded
 * with `x`), streamed with backpressure and without Content-Length; with
 * `Infinity` the message never ends, until the client leaves. A client must
 * cap what it reads of an error body.
 */
export async function sendHugeError(call: Call, bytes: number): Promise<void> {
  call.log.status = 500
  call.res.writeHead(500, { 'content-type': 'application/json' })
  await writeChunk(call, HEAD)
  await writeFill(call, 'x', bytes - HEAD.length - TAIL.length)
  call.res.end(TAIL)
}
