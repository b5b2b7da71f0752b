/**
 * Node streams of Observables: {@link toReadable} and {@link toTextReadable}
 * for `stream.pipeline`. Kept apart from `rxgate` so that a browser build never
 * meets `node:stream`; `toAsyncIterable` and `download$` are in `rxgate`.
 *
 * @example
 * ```ts
 * import { pipeline } from 'node:stream/promises'
 * import { createClient, responses$ } from 'rxgate'
 * import { toTextReadable } from 'rxgate/node'
 *
 * await pipeline(toTextReadable(responses$(client, { model: 'gpt-4.1-mini', input: 'Write a haiku', stream: true })), process.stdout)
 * ```
 *
 * @module rxgate/node
 */
// rxgate/node: the pieces that need Node's own modules (node:stream), kept out
// of the main entry so a browser build never meets them and the main entry's
// types name no Node type. Everything else, toAsyncIterable and download$
// included, is in the main entry.
export { toReadable } from './toReadable.js'
export { toTextReadable } from './toTextReadable.js'
export type { TextReadableOptions } from './toTextReadable.js'
export type { AsyncIterableOptions, ObservableIterator, OverflowPolicy } from '../pipeline/toAsyncIterable.js'
