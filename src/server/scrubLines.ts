import { concat, lineScrubber } from './lineScrubber.js'

/**
 * Masks the key in a stream of server-sent events as it passes, raw or
 * written with JSON escapes (`\u0073k-…`, `\/`), so no `data:` line, an
 * `error` event's included, decodes to the key or an 8-character piece of
 * it. Each chunk is passed on at once up to its last line end, as one
 * chunk; only the unfinished last line waits for the next chunk (see
 * {@link lineScrubber}), so no event reaches the browser later than it
 * would unmasked. A line longer than 16 MiB breaks the stream. For a key
 * too short to mask (a local placeholder) the bytes pass as they came.
 *
 * This is the relay's form for a web stream (the reply of a `fetch`); a
 * body pulled chunk by chunk in Node goes through {@link scrubbedChunks}.
 *
 * @example
 * ```ts
 * upstream.body.pipeThrough(scrubLines(apiKey))
 * ```
 */
export function scrubLines(secret: string): TransformStream<Uint8Array, Uint8Array> {
  const lines = lineScrubber(secret)
  if (!lines) return new TransformStream()
  return new TransformStream({
    transform(chunk, controller) {
      const [first, rest] = lines.push(chunk)
      // One chunk out for each chunk in.
      if (first) controller.enqueue(rest ? concat([first], rest, first.length) : first)
    },
    flush(controller) {
      const out = lines.end()
      if (out) controller.enqueue(out)
    },
  })
}
