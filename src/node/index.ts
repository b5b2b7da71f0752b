// rxgate/node: the pieces that need Node's own modules (node:stream), kept out
// of the main entry so a browser build never meets them and the main entry's
// types name no Node type. Everything else, toAsyncIterable and download$
// included, is in the main entry.
export { toReadable } from './toReadable.js'
export { toTextReadable } from './toTextReadable.js'
export type { TextReadableOptions } from './toTextReadable.js'
export type { AsyncIterableOptions, ObservableIterator, OverflowPolicy } from './toAsyncIterable.js'
