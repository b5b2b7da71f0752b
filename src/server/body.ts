import { Refusal } from './reply.js'

/**
 * Reads a request's JSON body, at most `limit` bytes, whole within
 * `timeoutMs` of starting. A body that says it is larger is refused before a
 * byte is read; one that grows past the limit, or is still coming when the
 * time is up, is cancelled there, so a client can make the server hold
 * neither more than `limit` bytes nor a read for longer than `timeoutMs`.
 * Refusals: 413 (too large), 408 (too slow), 415 (not JSON), 400 (empty,
 * not UTF-8, not JSON).
 */
export async function readJsonBody(request: Request, limit: number, timeoutMs: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new Refusal(415, 'unsupported_media_type', 'The body must be JSON, sent with "Content-Type: application/json".')
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) throw tooLarge(limit)
  const bytes = await readBytes(request.body, limit, timeoutMs)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new Refusal(400, 'invalid_json', 'The body is not valid UTF-8.')
  }
  if (!text.trim()) throw new Refusal(400, 'invalid_json', 'The body is empty; this endpoint takes a JSON object.')
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new Refusal(400, 'invalid_json', 'The body is not valid JSON.')
  }
}

async function readBytes(body: ReadableStream<Uint8Array> | null, limit: number, timeoutMs: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array()
  const reader = body.getReader()
  // Cancelling ends the pending read at once (as done), so a body that stalls altogether is caught too.
  let late = false
  const timer = setTimeout(() => {
    late = true
    reader.cancel().catch(() => {})
  }, timeoutMs)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      // A read fails only for a body that broke before the time was up; one cancelled by the timer ends as done.
      const next = await reader.read()
      if (late) throw new Refusal(408, 'body_timeout', `The body did not arrive whole within ${timeoutMs} ms.`)
      if (next.done) break
      const { value } = next
      size += value.byteLength
      if (size > limit) {
        reader.cancel().catch(() => {})
        throw tooLarge(limit)
      }
      chunks.push(value)
    }
  } finally {
    clearTimeout(timer)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}

function tooLarge(limit: number): Refusal {
  return new Refusal(413, 'body_too_large', `The body is larger than this server accepts (${limit} bytes).`)
}
