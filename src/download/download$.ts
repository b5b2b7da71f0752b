import { asyncScheduler, Observable } from 'rxjs'
import { asGatewayError } from '../errors/GatewayError.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { ResultExpiredError } from '../errors/ResultExpiredError.js'
import { openSink } from './sink.js'
import { Transfer } from './transfer.js'
import type { DownloadEvent, DownloadOptions, DownloadTarget } from './types.js'

/**
 * Downloads a result URL (a completed task's video or image) to `target`: a
 * file path or a `Writable` in Node, `{ blob: true }` anywhere. Emits
 * `{ type: 'progress', bytes, total, fraction }` as bytes arrive, then
 * `{ type: 'saved', bytes, file | blob, resumed, restarted }`, then completes.
 *
 * - With `expiresAt` passed (a completed `TaskEvent`'s), it fails at once
 *   with `ResultExpiredError`, before any request; a server answering 410 does too.
 * - Sends no `Authorization` header, nor any header of a client: result
 *   URLs are signed, and the key must not travel to the host serving them.
 * - A transfer that breaks (or goes silent for `timeoutMs`) is picked up
 *   where it broke with `Range: bytes=<n>-`, when the server serves ranges
 *   (`Accept-Ranges: bytes`) and its 206 has the expected `Content-Range`;
 *   otherwise it begins again from byte 0 (a `Writable` cannot: then it
 *   fails). `retries` breaks in a row are survived, the first at once.
 * - A file is written under a temporary name in the same folder and renamed
 *   when complete. Unsubscribing, or a failure, aborts the request and
 *   removes the temporary file: the final name never holds a partial file.
 * - Each chunk is written before the next is read, so a slow disk or stream
 *   slows the transfer (TCP backpressure) instead of filling memory.
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
      const expiresAt = timeOf(options.expiresAt)
      if (expiresAt !== undefined && scheduler.now() >= expiresAt) throw new ResultExpiredError(path, new Date(expiresAt), false)
      const transfer = new Transfer(url, path, openSink(target, options.end !== false), options, scheduler, subscriber)
      void transfer.run()
      return () => transfer.stop()
    } catch (error) {
      subscriber.error(asGatewayError(error))
      return undefined
    }
  })
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
  return parsed.pathname
}

function timeOf(value: Date | number | string | undefined): number | undefined {
  if (value === undefined) return undefined
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}
