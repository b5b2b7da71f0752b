import { Readable } from 'node:stream'
import type { Observable } from 'rxjs'
import { iterate, type AsyncIterableOptions } from '../pipeline/toAsyncIterable.js'

/**
 * An object-mode Node `Readable` of an Observable's values, for
 * `stream.pipeline` and other stream APIs. Built on `toAsyncIterable`: the
 * source is subscribed when the stream is first read; while the reader is
 * behind (the stream's own buffer full), at most `highWaterMark` values wait,
 * then `overflow` applies (`'error'` destroys the stream at once with
 * `BufferOverflowError`). The source's error destroys the stream with that
 * error; destroying the stream (or a pipeline failing downstream)
 * unsubscribes, aborting the request.
 *
 * @example
 * ```ts
 * import { pipeline } from 'node:stream/promises'
 * import { createClient, task$, endpoints } from 'rxgate'
 * import { toReadable } from 'rxgate/node'
 *
 * await pipeline(toReadable(task$(client, endpoints.videoOne, taskId)), async function* (events) {
 *   for await (const event of events) yield `${event.type}\n`
 * }, process.stdout)
 * // Output: processing
 * // Output: completed
 * ```
 */
export function toReadable<T>(source$: Observable<T>, options: AsyncIterableOptions = {}): Readable {
  // One value in the stream's own buffer: the bound that counts is the iterator's.
  const readable: Readable = Readable.from(
    iterate(source$, options, (error) => readable.destroy(error)),
    { objectMode: true, highWaterMark: 1 },
  )
  return readable
}
