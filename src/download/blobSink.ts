import type { Sink } from './sinkTypes.js'
import type { BlobTarget } from './types.js'

/** A sink that keeps the chunks in memory and makes one `Blob` of them at the end. */
export function blobSink(target: BlobTarget): Sink {
  let chunks: Uint8Array[] = []
  return {
    write: async (chunk) => {
      chunks.push(chunk)
    },
    restart: async () => {
      chunks = []
      return true
    },
    finish: async (type) => {
      const blob = new Blob(chunks as BlobPart[], { type: target.type ?? type ?? '' })
      chunks = []
      return { blob }
    },
    discard: async () => {
      chunks = []
    },
  }
}
