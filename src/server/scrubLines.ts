import { MIN_SECRET_LENGTH, scrubText } from '../errors/redact.js'

/** The longest line held back while waiting for its end: an event larger than the client's own limit is broken anyway. */
const MAX_LINE_CHARS = 16 * 1024 * 1024

/**
 * Masks the key in a stream of server-sent events as it passes. Each chunk
 * is passed on at once up to its last line end; only the unfinished last
 * line waits for the next chunk. A key holds no line break, so every
 * stretch of it (and every 8-character fragment) lies within one complete
 * line when that line is masked; and since an event is only complete at a
 * blank line, no event reaches the browser later than it would unmasked.
 *
 * @example
 * ```ts
 * upstream.body.pipeThrough(scrubLines(apiKey))
 * ```
 */
export function scrubLines(secret: string): TransformStream<Uint8Array, Uint8Array> {
  // Keys this short are local placeholders that scrubText leaves alone, so there is nothing to mask.
  if (secret.length < MIN_SECRET_LENGTH) return new TransformStream()
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true })
      const end = Math.max(pending.lastIndexOf('\n'), pending.lastIndexOf('\r')) + 1
      if (end > 0) {
        controller.enqueue(encoder.encode(scrubText(pending.slice(0, end), secret)))
        pending = pending.slice(end)
      }
      if (pending.length > MAX_LINE_CHARS) controller.error(new Error(`A stream line is longer than ${MAX_LINE_CHARS} characters.`))
    },
    flush(controller) {
      pending += decoder.decode()
      if (pending) controller.enqueue(encoder.encode(scrubText(pending, secret)))
    },
  })
}
