import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { blobSink } from './blobSink.js'
import type { Sink } from './sinkTypes.js'
import type { DownloadTarget } from './types.js'
import { writableSink } from './writableSink.js'

/** Browser: a Blob, or a stream-like object with `write`; a file path needs Node (so `keepPartial`, which takes one, does too). */
export function openSink(target: DownloadTarget, end: boolean): Sink {
  if (typeof target === 'object' && target !== null) {
    if ('blob' in target && target.blob === true) return blobSink(target)
    if ('write' in target && typeof target.write === 'function') return writableSink(target, end)
  }
  throw new InvalidRequestError(
    [{ path: 'target', message: 'a file path needs Node; in a browser pass { blob: true } and save the Blob (e.g. with a link to URL.createObjectURL(blob))' }],
    'download target',
  )
}
