import { filter, map, pipe, type OperatorFunction } from 'rxjs'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/**
 * The text pieces of a streamed response, in order, as they arrive.
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', input: 'Say hi', stream: true }).pipe(textDeltas())
 *   .subscribe((piece) => process.stdout.write(piece))
 * // Output: Hi there!
 * ```
 */
export function textDeltas(): OperatorFunction<ResponseStreamEvent, string> {
  return pipe(
    filter((event) => event.type === 'response.output_text.delta'),
    map((event) => (event as { delta: string }).delta),
  )
}
