/**
 * The browser's reply for an event stream that the relay reads chunk by
 * chunk in Node (undici's dispatcher, no web stream): a standard `Response`
 * whose body pulls from `chunks`, and which also hands `chunks` themselves
 * to the Node adapter, so that each masked chunk goes from the gateway's
 * socket to the browser's with no web stream between. Whichever reads
 * first reads it all: the body is pulled only when it is read.
 *
 * @example
 * ```ts
 * const reply = new RelayedStream(scrubbedChunks(body, apiKey), { status: 200, headers })
 * for (let r = await reply.chunks.next(); !r.done; r = await reply.chunks.next()) res.write(r.value)
 * ```
 */
export class RelayedStream extends Response {
  /** The body's chunks, for the Node adapter to write as they come; the same ones the web body pulls. */
  readonly chunks: AsyncIterator<Uint8Array>

  constructor(chunks: AsyncIterable<Uint8Array>, init: ResponseInit) {
    const iterator = chunks[Symbol.asyncIterator]()
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = await iterator.next()
          if (next.done) controller.close()
          else controller.enqueue(next.value)
        },
        cancel: async () => {
          await iterator.return?.()
        },
      },
      // Nothing is read ahead: the Node adapter may read `chunks` instead.
      { highWaterMark: 0 },
    )
    super(body, init)
    this.chunks = iterator
  }
}
