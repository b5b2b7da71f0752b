import type { Observable } from 'rxjs'
import type { BufferOverflowError } from '../errors/BufferOverflowError.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { Bridge, type ObservableIterator, type OverflowPolicy } from './bridge.js'

export type { ObservableIterator, OverflowPolicy }

/** Options of {@link toAsyncIterable}. */
export interface AsyncIterableOptions {
  /** Most values held for a consumer that is behind (an integer of at least 1). @defaultValue `1_000` */
  readonly highWaterMark?: number
  /** What a value arriving into a full buffer does. @defaultValue `'error'` */
  readonly overflow?: OverflowPolicy
}


const DEFAULT_HIGH_WATER_MARK = 1_000

/**
 * Iterates an Observable with `for await`, holding at most `highWaterMark`
 * values for a consumer that is slower than the source (see
 * {@link OverflowPolicy} for what happens past it). The source is
 * subscribed at the first `next()`, not before, so making the iterable
 * sends nothing. Its values come in order; its error is thrown after the
 * values that came before it; its completion ends the loop.
 *
 * Leaving the loop early (`break`, `return`, a throw in its body) calls
 * `return()`, which unsubscribes: the request in flight is aborted, and the
 * waiting values are dropped. One iteration per iterable: iterate a new
 * `toAsyncIterable(source$)` to subscribe again. The reverse,
 * AsyncIterable to Observable, is RxJS's own `from(iterable)`.
 *
 * @example
 * ```ts
 * import { createClient, responses$, toAsyncIterable } from 'rxgate'
 * const client = createClient({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * for await (const event of toAsyncIterable(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', stream: true }))) {
 *   if (event.type === 'response.output_text.delta') process.stdout.write(event.delta)
 * }
 * // Output: Hi there! How can I help you today?
 * ```
 */
export function toAsyncIterable<T>(source$: Observable<T>, options: AsyncIterableOptions = {}): ObservableIterator<T> {
  return iterate(source$, options)
}

/**
 * {@link toAsyncIterable}, and `onOverflow` told at the moment of an
 * `'error'` overflow, before the waiting values are taken: a Node stream
 * whose reader has stopped reading would otherwise never take them, nor the error.
 */
export function iterate<T>(source$: Observable<T>, options: AsyncIterableOptions, onOverflow?: (error: BufferOverflowError) => void): ObservableIterator<T> {
  const { highWaterMark = DEFAULT_HIGH_WATER_MARK, overflow = 'error' } = options
  const issues = []
  if (!Number.isInteger(highWaterMark) || highWaterMark < 1) issues.push({ path: 'highWaterMark', message: `must be an integer of at least 1 (got ${highWaterMark})` })
  if (overflow !== 'error' && overflow !== 'drop-oldest') issues.push({ path: 'overflow', message: `must be 'error' or 'drop-oldest' (got ${JSON.stringify(overflow)})` })
  if (issues.length > 0) throw new InvalidRequestError(issues, 'toAsyncIterable options')
  return new Bridge(source$, highWaterMark, overflow, onOverflow)
}
