import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { PayloadTooLargeError } from '../errors/PayloadTooLargeError.js'
import type { DownloadTarget } from './types.js'

/**
 * The largest file a download writes to a file path or a `Writable` unless
 * `maxBytes` says otherwise: 4 GiB. A generated video of several minutes in
 * high quality stays far below it, while a hostile host's endless or
 * decompression-bomb body is stopped before it fills a disk.
 */
export const DEFAULT_MAX_BYTES = 4 * 1024 ** 3

/**
 * The largest file a download keeps in memory for a `{ blob: true }` target
 * unless `maxBytes` says otherwise: 1 GiB. Every byte of a Blob is held in
 * memory until the download completes (a browser tab may hold less), so the
 * bound is lower than a disk's; it is still far above any generated video.
 */
export const DEFAULT_MAX_BLOB_BYTES = 1024 ** 3

/**
 * `maxBytes` as given, checked (a positive safe integer, else an
 * `InvalidRequestError` before anything is sent), or the default of the
 * target: {@link DEFAULT_MAX_BLOB_BYTES} for `{ blob: true }`, else
 * {@link DEFAULT_MAX_BYTES}. A limit that is not a number would let any
 * size through, so it is refused rather than ignored.
 *
 * @example
 * ```ts
 * maxBytesOf(undefined, 'out/kite.mp4')      // 4294967296
 * maxBytesOf(undefined, { blob: true })      // 1073741824
 * maxBytesOf(50_000_000, { blob: true })     // 50000000
 * maxBytesOf(0, 'out/kite.mp4')              // throws InvalidRequestError (maxBytes)
 * ```
 */
export function maxBytesOf(maxBytes: unknown, target: DownloadTarget | undefined, what = 'download'): number {
  if (maxBytes === undefined) return isBlobTarget(target) ? DEFAULT_MAX_BLOB_BYTES : DEFAULT_MAX_BYTES
  if (typeof maxBytes === 'number' && Number.isSafeInteger(maxBytes) && maxBytes >= 1) return maxBytes
  const shown = typeof maxBytes === 'number' ? String(maxBytes) : typeof maxBytes
  throw new InvalidRequestError([{ path: 'maxBytes', message: `must be an integer from 1 to 2^53-1, in bytes (got ${shown})` }], what)
}

/**
 * The failure of a download whose file would pass `maxBytes`: announced
 * (`Content-Length` or `Content-Range`) or counted as the bytes arrive.
 *
 * @example
 * ```ts
 * throw tooLarge('/videos/kite.mp4', 1_000_000) // PayloadTooLargeError, limit 'maxBytes'
 * ```
 */
export function tooLarge(path: string, maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError('GET', path, 'maxBytes', maxBytes)
}

function isBlobTarget(target: DownloadTarget | undefined): boolean {
  return typeof target === 'object' && target !== null && 'blob' in target && target.blob === true
}
