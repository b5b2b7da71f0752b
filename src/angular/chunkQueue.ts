/**
 * A reply body fed by pushes (HttpClient's progress events) and read as the
 * transport contract asks: an async iterable of byte chunks, or its whole text.
 */
export class ChunkQueue implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = []
  private ended = false
  private failure: unknown = undefined
  private wake: (() => void) | undefined

  push(chunk: Uint8Array): void {
    if (this.ended || chunk.byteLength === 0) return
    this.chunks.push(chunk)
    this.notify()
  }

  end(): void {
    this.ended = true
    this.notify()
  }

  /** Ends the body with an error, after the chunks already pushed. */
  fail(error: unknown): void {
    if (this.ended) return
    this.failure = error ?? new Error('The reply broke off.')
    this.end()
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift()
      if (chunk) {
        yield chunk
        continue
      }
      if (this.failure !== undefined) throw this.failure
      if (this.ended) return
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }

  async text(): Promise<string> {
    const decoder = new TextDecoder()
    let text = ''
    for await (const chunk of this) text += decoder.decode(chunk, { stream: true })
    return text + decoder.decode()
  }

  private notify(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }
}
