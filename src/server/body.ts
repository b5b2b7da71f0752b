import { Refusal } from './reply.js'

/**
 * Reads a request's JSON body, at most `limit` bytes. A body that says it is
 * larger is refused before a byte is read; one that grows past the limit is
 * cancelled there, so a client cannot make the server hold more than
 * `limit` bytes. Refusals: 413 (too large), 415 (not JSON), 400 (empty,
 * not UTF-8, not JSON).
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new Refusal(415, 'unsupported_media_type', 'The body must be JSON, sent with "Content-Type: application/json".')
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) throw tooLarge(limit)
  const bytes = await readBytes(request.body, limit)
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

async function readBytes(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array()
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      reader.cancel().catch(() => {})
      throw tooLarge(limit)
    }
    chunks.push(value)
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
