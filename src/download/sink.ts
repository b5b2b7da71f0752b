import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { blobSink } from './blobSink.js'
import { fileSink } from './fileSink.js'
import { partialFileSink } from './partialFileSink.js'
import type { Sink } from './sinkTypes.js'
import type { DownloadTarget } from './types.js'
import { writableSink } from './writableSink.js'

/**
 * Node: a file path, a `Writable` or a Blob; a file path with `partialOf`
 * (the URL, for `keepPartial`) keeps its partial file; `overwrite: false`
 * keeps a file already at the path (see `fileSink`). The browser build
 * swaps this file for `sink.browser.ts`.
 */
export function openSink(target: DownloadTarget, end: boolean, partialOf?: string, overwrite = true): Sink {
  if (typeof target === 'string' && target) return partialOf === undefined ? fileSink(target, { overwrite }) : partialFileSink(target, partialOf, { overwrite })
  if (typeof target === 'object' && target !== null) {
    if ('blob' in target && target.blob === true) return blobSink(target)
    if ('write' in target && typeof target.write === 'function') return writableSink(target, end)
  }
  throw new InvalidRequestError([{ path: 'target', message: 'must be a file path, a Writable, or { blob: true }' }], 'download target')
}
