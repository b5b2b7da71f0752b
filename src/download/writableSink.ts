import type { Sink } from './sinkTypes.js'
import type { WritableLike } from './types.js'

/**
 * A sink over a caller's `Writable`: each chunk waits for the stream to take
 * it, so a slow stream slows the download. A stream cannot be rewound, so
 * once written to it cannot start over; on failure it is left as it is
 * (neither ended nor destroyed: it is the caller's).
 */
export function writableSink(stream: WritableLike, end: boolean): Sink {
  let written = false
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        written = true
        stream.write(chunk, (error) => (error ? reject(error) : resolve()))
      }),
    restart: async () => !written,
    finish: async () => {
      if (end) await new Promise<void>((resolve) => stream.end(() => resolve()))
      return {}
    },
    discard: async () => {},
  }
}
