import type { WritableLike } from '../../src/download/types.js'

/** A stream-like target that records the chunks it takes and whether it was ended; it takes each at once. */
export function recordingStream(): WritableLike & { chunks: string[]; ended: boolean } {
  const s = {
    chunks: [] as string[],
    ended: false,
    write(chunk: Uint8Array, callback: (error?: Error | null) => void) {
      s.chunks.push(new TextDecoder().decode(chunk))
      callback()
      return true
    },
    end(callback?: () => void) {
      s.ended = true
      callback?.()
    },
  }
  return s
}
