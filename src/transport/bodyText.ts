/** A body's text as its chunks arrive, kept to at most `limit` bytes. */
export interface BodyText {
  /** Adds the next chunk; false once the body has gone past the limit (the text then holds its first `limit` bytes, the rest is dropped). */
  add(chunk: Uint8Array): boolean
  /** The text read: call it once, when the body ended or went past the limit. */
  end(): string
}

/**
 * Collects a body of unknown length as text, counting its bytes as they
 * arrive, so an endless body never grows memory past `limit`. Chunks may
 * split a multibyte character anywhere. Shared by the Promise exchange
 * (iterating `body`) and the Observable one (`chunk` notifications).
 *
 * @example
 * ```ts
 * const body = bodyText(4)
 * body.add(new TextEncoder().encode('abcdef')) // false: past 4 bytes
 * body.end() // 'abcd'
 * ```
 */
export function bodyText(limit: number): BodyText {
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  let over = false
  return {
    add(chunk) {
      if (over) return false
      bytes += chunk.byteLength
      if (bytes > limit) {
        over = true
        text += decoder.decode(chunk.subarray(0, chunk.byteLength - (bytes - limit)))
        return false
      }
      text += decoder.decode(chunk, { stream: true })
      return true
    },
    end: () => (over ? text : text + decoder.decode()),
  }
}
