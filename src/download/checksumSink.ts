import { ChecksumMismatchError } from '../errors/ChecksumMismatchError.js'
import { createSha256 } from './sha256.js'
import type { Sink } from './sinkTypes.js'

/**
 * A sink that hashes (SHA-256) every byte it passes on to `sink`, in the
 * order they land in the file: bytes continued from a partial file are read
 * back from disk first, and a restart begins the digest again. `finish`
 * adds the digest to the result; with `expected` (lower-case hex), a digest
 * that differs scraps the file, partial file included, and fails with
 * {@link ChecksumMismatchError} before the final name is given.
 *
 * @example
 * ```ts
 * const sink = checksumSink(fileSink('out/kite.mp4'), expected, '/videos/kite.mp4')
 * ```
 */
export function checksumSink(sink: Sink, expected: string | undefined, path: string): Sink {
  let hash = createSha256()
  let bytes = 0
  const leftover = sink.leftover?.bind(sink)
  return {
    write: async (chunk) => {
      await sink.write(chunk)
      hash.update(chunk)
      bytes += chunk.byteLength
    },
    restart: async () => {
      const done = await sink.restart()
      if (done) {
        hash = createSha256()
        bytes = 0
      }
      return done
    },
    finish: async (type) => {
      const actual = hash.hex()
      if (expected !== undefined && actual !== expected) {
        await sink.discard(true)
        throw new ChecksumMismatchError({ path, expected, actual, bytes })
      }
      return { ...(await sink.finish(type)), sha256: actual }
    },
    discard: (scrap) => sink.discard(scrap),
    ...(leftover && {
      leftover: async () => {
        const left = await leftover()
        if (!left) return undefined
        for await (const chunk of left.read()) {
          hash.update(chunk)
          bytes += chunk.byteLength
        }
        return left
      },
    }),
    ...(sink.begin && { begin: sink.begin.bind(sink) }),
  }
}
