import { lineScrubber } from './lineScrubber.js'

/**
 * Masks the key in a body of server-sent events pulled chunk by chunk (the
 * relay's Node path, with no web stream): the same masking as
 * {@link scrubLines}, over an async iterable. Each chunk read gives at once
 * the lines it completes, masked, as one or two pieces (the first line,
 * joined to what was held; then the rest, not copied); a chunk that
 * completes none gives nothing, and the next one is read. Stopping early
 * (`return`) stops the source at once, even while a read is pending, so a
 * browser that leaves frees the gateway's connection.
 *
 * @example
 * ```ts
 * for await (const chunk of scrubbedChunks(reply.body, apiKey)) res.write(chunk)
 * ```
 */
export function scrubbedChunks(source: AsyncIterable<Uint8Array>, secret: string): AsyncIterable<Uint8Array> {
  const lines = lineScrubber(secret)
  if (!lines) return source
  return {
    [Symbol.asyncIterator]() {
      const chunks = source[Symbol.asyncIterator]()
      let ended = false
      // What the last chunk gave and is not taken yet (its first line and the lines after it).
      let ready: Uint8Array[] = []
      const done = { done: true, value: undefined } as const
      // Not an async generator: its `return` would wait for a pending read, which may never come.
      const next = async (): Promise<IteratorResult<Uint8Array>> => {
        for (;;) {
          const piece = ready.shift()
          if (piece) return { done: false, value: piece }
          if (ended) return done
          const read = await chunks.next()
          if (read.done) {
            ended = true
            const last = lines.end()
            return last ? { done: false, value: last } : done
          }
          try {
            ready = lines.push(read.value)
          } catch (error) {
            // A line past the limit: the rest is not wanted.
            ended = true
            void chunks.return?.().catch(() => {})
            throw error
          }
        }
      }
      return {
        next,
        return: async () => {
          ended = true
          ready = []
          await chunks.return?.().catch(() => {})
          return done
        },
      }
    },
  }
}
