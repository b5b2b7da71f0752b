import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A consumer of `toAsyncIterable` (a `for await` loop) or of a Node
 * `Readable` of rxgate fell behind: `highWaterMark` values (characters, for
 * `toTextReadable`) were waiting when more arrived, and the policy was
 * `overflow: 'error'`. The source was unsubscribed at that moment (its
 * request aborted). A `for await` loop still gets the values that were
 * waiting before this error; a `Readable` is destroyed with it at once.
 *
 * @example
 * ```ts
 * try {
 *   for await (const event of toAsyncIterable(events$, { highWaterMark: 100 })) await slowWork(event)
 * } catch (err) {
 *   if (isBufferOverflowError(err)) console.log(err.highWaterMark, err.unit)
 * }
 * // Output: 100 values
 * ```
 */
export class BufferOverflowError extends GatewayError {
  /** Always `'BufferOverflowError'`; test it with {@link isBufferOverflowError}. */
  override name = 'BufferOverflowError' as const
  /** How many values (or characters, see `unit`) were waiting when more arrived. */
  readonly highWaterMark: number
  /** What `highWaterMark` counts: values, or characters of text (`toTextReadable`). */
  readonly unit: 'values' | 'characters'

  constructor(highWaterMark: number, unit: 'values' | 'characters' = 'values') {
    super(
      `The consumer fell behind: ${highWaterMark} ${unit} were waiting when more arrived, so the source was unsubscribed and its request aborted. ` +
        (unit === 'values' ? "Consume faster, raise highWaterMark, or choose overflow: 'drop-oldest'." : 'Consume faster or raise highWaterMark.'),
    )
    this.highWaterMark = highWaterMark
    this.unit = unit
  }
}

/** Whether `value` is a {@link BufferOverflowError}, from any copy of rxgate. */
export const isBufferOverflowError = isNamed<BufferOverflowError>('BufferOverflowError')
