import { HttpError, requestIdOf } from '../errors/HttpError.js'
import { isInvalidRequestError } from '../errors/InvalidRequestError.js'
import { ResultExpiredError } from '../errors/ResultExpiredError.js'
import type { AbortSignalLike } from '../transport/abort.js'
import { connectionError, readText } from '../transport/exchange.js'
import { parseRetryAfter } from '../transport/retryAfter.js'
import type { Transport, TransportResponse } from '../transport/types.js'
import { parseContentRange } from './contentRange.js'
import { maskSignatures, MAX_STORAGE_BODY_BYTES, saysExpired } from './storageReply.js'

/** One answered GET of a result file: where its body begins and ends, and what the server said of the whole. */
export interface Part {
  /** Offset of the body's first byte in the file: 0 for a 200, the `Content-Range` start for a 206. */
  readonly start: number
  /** Offset just past the body's last byte, when announced (`Content-Length` of a 200, `Content-Range` end of a 206; never for a compressed reply): no byte may come past it. */
  readonly end: number | undefined
  /** Size of the whole file, when the server gave it. */
  readonly total: number | undefined
  /** The server serves byte ranges (`Accept-Ranges: bytes`, or it just sent a 206). */
  readonly ranges: boolean
  /** A strong `ETag`, else `Last-Modified`: sent back as `If-Range`. Without one the file is never resumed. */
  readonly validator: string | undefined
  /** `ETag` and `Last-Modified` as sent: a resumed part must carry the same as the first, or it is another version of the file. */
  readonly version: string
  readonly type: string | undefined
  readonly res: TransportResponse
}

/**
 * Sends `GET url`, from byte `from` when it is above 0 (`Range: bytes=<from>-`),
 * asking for the bytes as stored (`Accept-Encoding: identity`), with no
 * header but those: result URLs are signed, and no client's
 * `Authorization` may travel to the host that serves them. Resolves with a
 * 200 or a 206 whose `Content-Range` could be read (and agrees with its
 * `Content-Length`); `undefined` for a 416 (nothing at `from`) or an
 * unreadable 206, where the caller starts over. A compressed reply
 * (`Content-Encoding` other than `identity`) is one of unknown length that
 * cannot be resumed, and a compressed 206 is unreadable. A 410, or a 400/403 whose
 * body says the signature expired, rejects with {@link ResultExpiredError};
 * any other status with `HttpError` (its body masked of anything that may
 * carry the signature); a network failure with `ConnectionError`.
 */
export async function openPart(transport: Transport, url: string, path: string, from: number, validator: string | undefined, signal: AbortSignalLike): Promise<Part | undefined> {
  const spec = { method: 'GET', path } as const
  // Identity: Content-Length and ranges then count the bytes saved, and no compressed reply can decode past what was
  // announced. A browser forbids the header and drops it (it decodes itself): `maxBytes` counts decoded bytes all the same.
  const headers: Record<string, string> = { 'accept-encoding': 'identity', ...(from > 0 ? { range: `bytes=${from}-`, ...(validator ? { 'if-range': validator } : {}) } : {}) }
  let res: TransportResponse
  try {
    res = await transport({ method: 'GET', url, headers, signal })
  } catch (error) {
    // A hop the outbound guard refused is the caller's to fix, as it is: no retry, no rewording.
    if (isInvalidRequestError(error)) throw error
    throw connectionError(spec, error, false)
  }
  const header = (name: string) => res.header(name)
  // A compressed reply is decoded by fetch, while its Content-Length and byte
  // ranges count the compressed bytes: its length is unknown, and its bytes
  // cannot be resumed (raw gzip would follow decoded bytes). It is taken whole.
  const encoded = !/^\s*(identity\s*)?$/i.test(header('content-encoding') ?? '')
  const length = encoded ? undefined : lengthOf(header('content-length'))
  const etag = header('etag')
  const common = {
    ranges: !encoded && /\bbytes\b/i.test(header('accept-ranges') ?? ''),
    validator: encoded ? undefined : (strongEtag(etag) ?? header('last-modified')),
    version: `${etag ?? ''}\n${header('last-modified') ?? ''}`,
    type: header('content-type'),
    res,
  }
  if (res.status === 200) return { start: 0, end: length, total: length, ...common }
  if (res.status === 206 && !encoded) {
    const range = parseContentRange(header('content-range'))
    const end = range && range.end + 1
    if (range && (length === undefined || length === end! - range.start)) return { start: range.start, end, total: range.size, ...common, ranges: true }
  }
  const body = await readText(res, spec, MAX_STORAGE_BODY_BYTES, 'cut').catch(() => '')
  if (res.status === 206 || res.status === 416) return undefined
  if (res.status === 410 || saysExpired(res.status, body)) throw new ResultExpiredError(path, undefined, true, res.status)
  throw new HttpError({ method: 'GET', path, status: res.status, body: maskSignatures(body, url), retryAfterMs: parseRetryAfter(header('retry-after')), requestId: requestIdOf(header) })
}

/** A weak ETag (`W/"…"`) may not be used in `If-Range`. */
function strongEtag(etag: string | undefined): string | undefined {
  return etag && !etag.startsWith('W/') ? etag : undefined
}

function lengthOf(header: string | undefined): number | undefined {
  return header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined
}
