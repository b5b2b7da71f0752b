import { HttpError } from '../errors/HttpError.js'
import { ResultExpiredError } from '../errors/ResultExpiredError.js'
import type { AbortSignalLike } from '../transport/abort.js'
import { connectionError, readText } from '../transport/exchange.js'
import { parseRetryAfter } from '../transport/retryAfter.js'
import type { Transport, TransportResponse } from '../transport/types.js'
import { parseContentRange } from './contentRange.js'

/** One answered GET of a result file: where its body begins, and what the server said of the whole. */
export interface Part {
  /** Offset of the body's first byte in the file: 0 for a 200, the `Content-Range` start for a 206. */
  readonly start: number
  /** Size of the whole file, when the server gave it. */
  readonly total: number | undefined
  /** The server serves byte ranges (`Accept-Ranges: bytes`, or it just sent a 206). */
  readonly ranges: boolean
  /** `ETag` or `Last-Modified`, sent back as `If-Range` so a resume never mixes two versions of a file. */
  readonly validator: string | undefined
  readonly type: string | undefined
  readonly res: TransportResponse
}

/**
 * Sends `GET url`, from byte `from` when it is above 0 (`Range: bytes=<from>-`),
 * with no header but those: result URLs are signed, and no client's
 * `Authorization` may travel to the host that serves them. Resolves with a
 * 200 or a 206 whose `Content-Range` could be read; `undefined` for a 416
 * (nothing at `from`) or an unreadable 206, where the caller starts over.
 * A 410 rejects with {@link ResultExpiredError}, any other status with
 * `HttpError`, a network failure with `ConnectionError`.
 */
export async function openPart(transport: Transport, url: string, path: string, from: number, validator: string | undefined, signal: AbortSignalLike): Promise<Part | undefined> {
  const spec = { method: 'GET', path } as const
  const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-`, ...(validator ? { 'if-range': validator } : {}) } : {}
  let res: TransportResponse
  try {
    res = await transport({ method: 'GET', url, headers, signal })
  } catch (error) {
    throw connectionError(spec, error, false)
  }
  const header = (name: string) => res.header(name)
  const length = Number(header('content-length') ?? Number.NaN)
  const common = {
    ranges: /\bbytes\b/i.test(header('accept-ranges') ?? ''),
    validator: strongEtag(header('etag')) ?? header('last-modified'),
    type: header('content-type'),
    res,
  }
  if (res.status === 200) return { start: 0, total: Number.isFinite(length) ? length : undefined, ...common }
  if (res.status === 206) {
    const range = parseContentRange(header('content-range'))
    if (range) return { start: range.start, total: range.size, ...common, ranges: true }
  }
  const body = await readText(res, spec, 4096, 'cut').catch(() => '')
  if (res.status === 206 || res.status === 416) return undefined
  if (res.status === 410) throw new ResultExpiredError(path, undefined, true)
  throw new HttpError({ method: 'GET', path, status: res.status, body, retryAfterMs: parseRetryAfter(header('retry-after')) })
}

/** A weak ETag (`W/"…"`) may not be used in `If-Range`. */
function strongEtag(etag: string | undefined): string | undefined {
  return etag && !etag.startsWith('W/') ? etag : undefined
}
