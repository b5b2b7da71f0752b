import { Readable } from 'node:stream'
import type { Observable, Subscription } from 'rxjs'
import { BufferOverflowError } from '../errors/BufferOverflowError.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/** Options of {@link toTextReadable}. */
export interface TextReadableOptions {
  /** Most characters held for a destination that is behind, beyond the stream's own buffer. @defaultValue `1024 * 1024` */
  readonly highWaterMark?: number
}

const DEFAULT_HIGH_WATER_MARK = 1024 * 1024

/**
 * A text Node `Readable` (UTF-8) of a streamed response's text: the
 * `response.output_text.delta` pieces of a stream of events, in order, or
 * the strings of an Observable of strings. Pipe it to a file or a socket
 * with `stream.pipeline`, which applies backpressure: while the destination
 * is behind, the text waits, joined into one string (so a thousand tiny
 * deltas cost one write), at most `highWaterMark` characters of it; past
 * that the stream is destroyed with `BufferOverflowError` and the request
 * aborted (text is never dropped silently). The source is subscribed at the
 * first read. A failed response destroys the stream with its error;
 * destroying the stream unsubscribes, aborting the request.
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs'
 * import { readFile } from 'node:fs/promises'
 * import { pipeline } from 'node:stream/promises'
 * import { createClient, responses$ } from 'rxgate'
 * import { toTextReadable } from 'rxgate/node'
 *
 * const events$ = responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', stream: true })
 * await pipeline(toTextReadable(events$), createWriteStream('hi.txt'))
 * console.log(await readFile('hi.txt', 'utf8'))
 * // Output: Hi there! How can I help you today?
 * ```
 */
export function toTextReadable(source$: Observable<ResponseStreamEvent | string>, options: TextReadableOptions = {}): Readable {
  const { highWaterMark = DEFAULT_HIGH_WATER_MARK } = options
  if (!Number.isInteger(highWaterMark) || highWaterMark < 1) {
    throw new InvalidRequestError([{ path: 'highWaterMark', message: `must be an integer of at least 1 (got ${highWaterMark})` }], 'toTextReadable options')
  }
  let subscription: Subscription | undefined
  let pending = ''
  let wanted = false // the stream asked for more and has not been given any since
  let ended = false
  const flush = () => {
    if (wanted && pending) {
      const text = pending
      pending = ''
      wanted = readable.push(text)
    }
    if (ended && !pending) readable.push(null)
  }
  const readable = new Readable({
    encoding: 'utf8',
    read() {
      wanted = true
      subscription ??= source$.subscribe({
        next(value) {
          const piece = typeof value === 'string' ? value : value.type === 'response.output_text.delta' ? (value as { delta: string }).delta : ''
          if (!piece) return
          pending += piece
          if (pending.length > highWaterMark) readable.destroy(new BufferOverflowError(highWaterMark, 'characters'))
          else flush()
        },
        error: (error: unknown) => readable.destroy(error as Error),
        complete() {
          ended = true
          flush()
        },
      })
      flush()
    },
    destroy(error, callback) {
      subscription?.unsubscribe()
      pending = ''
      callback(error)
    },
  })
  return readable
}
