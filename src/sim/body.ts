import { apiError } from './apiError.js'
import type { Call } from './call.js'

/** The largest request body accepted: 1 MB (1,000,000 bytes); a larger one is a 413. */
export const MAX_BODY_BYTES = 1_000_000

/**
 * Reads the body as a JSON object. A declared or actual size over
 * {@link MAX_BODY_BYTES} is a 413 (and the connection is closed, as the rest
 * of the body is not read); a body that is not JSON, or JSON that is not an
 * object, is a 400.
 */
export async function readJsonObject(call: Call): Promise<Record<string, unknown>> {
  const tooLarge = () =>
    apiError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, 'request_too_large', { headers: { connection: 'close' } })
  if (Number(call.req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of call.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw tooLarge()
    chunks.push(chunk)
  }
  let value: unknown
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw apiError(400, 'The body is not valid JSON: send a JSON object with Content-Type: application/json.', 'invalid_json')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiError(400, `The body must be a JSON object (got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}).`, 'invalid_type')
  }
  return value as Record<string, unknown>
}
