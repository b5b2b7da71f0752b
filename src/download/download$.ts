import { asyncScheduler, Observable } from 'rxjs'
import { asGatewayError } from '../errors/GatewayError.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { ResultExpiredError } from '../errors/ResultExpiredError.js'
import { millis } from '../validation/options.js'
import { publicNetworkIssues } from '../transport/allowHosts.js'
import { checksumSink } from './checksumSink.js'
import { maxBytesOf } from './maxBytes.js'
import { openSink } from './sink.js'
import type { Sink } from './sinkTypes.js'
import { Transfer } from './transfer.js'
import type { DownloadEvent, DownloadOptions, DownloadTarget } from './types.js'

/**
 * Downloads a result URL (a completed task's video or image) to `target`: a
 * file path or a `Writable` in Node, `{ blob: true }` anywhere. Emits
 * `{ type: 'progress', bytes, total, fraction }` as bytes arrive, then
 * `{ type: 'saved', bytes, file | blob, resumed, restarted }`, then completes.
 *
 * - With `expiresAt` passed (a completed `TaskEvent`'s), it fails at once
 *   with `ResultExpiredError`, before any request; a server answering 410,
 *   or 400/403 with a body saying the signature expired, does too.
 * - Sends no `Authorization` header, nor any header of a client: result
 *   URLs are signed, and the key must not travel to the host serving them.
 * - The URL is not rxgate's: a private, loopback or link-local address (a
 *   redirect's too) is refused with `InvalidRequestError`, unless
 *   `allowHosts` names it or `allowPrivateNetwork` is set. A refusal ends
 *   the download at once. A `transport` of your own does its own checks.
 * - A transfer that breaks (or goes silent for `timeoutMs`) is picked up
 *   where it broke with `Range: bytes=<n>-` and `If-Range`, when the server
 *   serves ranges (`Accept-Ranges: bytes`), its first reply gave a validator
 *   (a strong `ETag` or `Last-Modified`), and its 206 has the expected
 *   `Content-Range` and the same `ETag` and `Last-Modified`; otherwise it
 *   begins again from byte 0 (a `Writable` cannot: then it fails). Two
 *   versions of a file are never spliced. `retries` caps the requests after
 *   the first, in all: at most `retries + 1`; the first retry goes at once.
 * - It asks for the bytes as stored (`Accept-Encoding: identity`; a browser
 *   drops that header and decodes itself). A compressed reply all the same
 *   (`Content-Encoding` other than `identity`) is saved decoded, of unknown
 *   size (its `Content-Length` counts compressed bytes), and a break begins
 *   it again from byte 0: it is never resumed.
 * - No file grows past `maxBytes` (default 4 GiB; 1 GiB for `{ blob: true }`,
 *   held in memory), counted in bytes written, decoded, across resumed
 *   ranges: an announced size above it is refused before the body is read,
 *   and a body that grows past it (a decompression bomb, a reply of no
 *   length) is cut at the limit. Either fails with `PayloadTooLargeError`
 *   (`limit: 'maxBytes'`), no retry, and leaves no file, nor a partial one
 *   (`keepPartial` included): a retry would meet the same limit.
 * - A body longer than its `Content-Length` or `Content-Range` fails the
 *   download: the file would not be the original.
 * - A file is written under a temporary name in the same folder and renamed
 *   when complete. Unsubscribing, or a failure, aborts the request and
 *   removes the temporary file: the final name never holds a partial file.
 * - With `keepPartial`, the temporary file is `<target>.part` and stays (with
 *   the version its bytes belong to in `<target>.part.json`) when the
 *   download fails, is unsubscribed, or its process dies; a later download
 *   of the same URL to the same target asks only for the rest (`Range` and
 *   `If-Range`), or begins again from byte 0 when the server answers with
 *   the whole file. `saved.fromPartial` says how many bytes were continued.
 * - With `sha256`, the file is hashed as it is written (continued bytes read
 *   back from disk) and `saved.sha256` holds the digest; given a digest, a
 *   file that differs ends in `ChecksumMismatchError`, with no final file
 *   and no partial file kept.
 * - Errors name the URL's path, never its query; a server's error body is
 *   masked of anything that may echo the signature.
 * - Each chunk is written before the next is read, so a slow disk or stream
 *   slows the transfer (TCP backpressure) instead of filling memory; the
 *   time a chunk takes to write is not counted as silence.
 * - A `timeoutMs` that is not an integer from 1 to 2^31-1, a `maxBytes` that
 *   is not a positive safe integer, or an `expiresAt` that cannot be read as
 *   a time, is refused with `InvalidRequestError`.
 *
 * @example
 * ```ts
 * import { download$ } from 'rxgate'
 * download$(completed.urls[0], 'out/kite.mp4', { expiresAt: completed.expiresAt }).subscribe((e) =>
 *   console.log(e.type === 'progress' ? `${Math.round((e.fraction ?? 0) * 100)} %` : `saved ${e.bytes} bytes to ${e.file}`),
 * )
 * // Output: 100 %
 * // Output: saved 2899 bytes to /home/me/out/kite.mp4
 * ```
 */
export function download$(url: string, target: DownloadTarget, options: DownloadOptions = {}): Observable<DownloadEvent> {
  return new Observable<DownloadEvent>((subscriber) => {
    const scheduler = options.scheduler ?? asyncScheduler
    let path: string
    try {
      path = checkedPath(url, options)
      const maxBytes = maxBytesOf(options.maxBytes, target)
      const expiresAt = timeOf(options.expiresAt)
      if (expiresAt !== undefined && scheduler.now() >= expiresAt) throw new ResultExpiredError(path, new Date(expiresAt), false)
      const transfer = new Transfer(url, path, sinkOf(url, path, target, options), { ...options, maxBytes }, scheduler, subscriber)
      void transfer.run()
      return () => transfer.stop()
    } catch (error) {
      subscriber.error(asGatewayError(error))
      return undefined
    }
  })
}

/** The target's sink: keeping its partial file with `keepPartial`, hashing with `sha256`. */
function sinkOf(url: string, path: string, target: DownloadTarget, options: DownloadOptions): Sink {
  const { keepPartial = false, sha256 = false, overwrite = true } = options
  const issues = []
  if (typeof overwrite !== 'boolean') issues.push({ path: 'overwrite', message: `must be a boolean (got ${typeof overwrite})` })
  if (typeof keepPartial !== 'boolean') issues.push({ path: 'keepPartial', message: `must be a boolean (got ${typeof keepPartial})` })
  else if (keepPartial && typeof target !== 'string') issues.push({ path: 'keepPartial', message: 'needs a file path target: a stream or a Blob cannot be continued later' })
  if (typeof sha256 !== 'boolean' && !(typeof sha256 === 'string' && /^[\da-f]{64}$/i.test(sha256))) {
    issues.push({ path: 'sha256', message: `must be true, false, or a SHA-256 digest of 64 hex digits (got ${typeof sha256 === 'string' ? `${sha256.length} characters` : typeof sha256})` })
  }
  if (issues.length > 0) throw new InvalidRequestError(issues, 'download')
  const sink = openSink(target, options.end !== false, keepPartial ? url : undefined, overwrite)
  return sha256 === false ? sink : checksumSink(sink, typeof sha256 === 'string' ? sha256.toLowerCase() : undefined, path)
}

/** The URL's path for messages (never its query: that holds the signature); refuses what is not http(s). */
function checkedPath(url: string, options: DownloadOptions): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {
    parsed = undefined
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new InvalidRequestError([{ path: 'url', message: 'must be an http:// or https:// URL' }], 'download')
  if (options.retries !== undefined && !(Number.isInteger(options.retries) && options.retries >= 0)) {
    throw new InvalidRequestError([{ path: 'retries', message: `must be an integer of at least 0 (got ${options.retries})` }], 'download')
  }
  // 0 would abort at once; Infinity or more than a timer holds would fire every millisecond.
  const timeout = options.timeoutMs === undefined ? undefined : millis(1)(options.timeoutMs)
  if (timeout) throw new InvalidRequestError([{ path: 'timeoutMs', message: timeout }], 'download')
  const network = publicNetworkIssues('', options)
  if (network.length > 0) throw new InvalidRequestError(network, 'download')
  return parsed.pathname
}

/** `expiresAt` in ms; one that cannot be read is refused, as ignoring it would download past the expiry unchecked. */
function timeOf(value: Date | number | string | undefined): number | undefined {
  if (value === undefined) return undefined
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (Number.isFinite(ms)) return ms
  const shown = value instanceof Date ? 'an invalid Date' : typeof value === 'string' ? JSON.stringify(value).slice(0, 80) : String(value)
  throw new InvalidRequestError([{ path: 'expiresAt', message: `must be a Date, a time in ms or a date string (got ${shown})` }], 'download')
}
