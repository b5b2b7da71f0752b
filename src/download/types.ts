import type { SchedulerLike } from 'rxjs'
import type { Transport } from '../transport/types.js'

/**
 * What `download$` needs of a Node `Writable` (any `fs.WriteStream`,
 * socket, `PassThrough`, HTTP response): written to chunk by chunk, each
 * awaited, so a slow target slows the download down instead of filling memory.
 */
export interface WritableLike {
  /** Writes one chunk; `callback` is called once it is handled (with an error if it failed). */
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean
  /** Ends the target; `callback` is called once everything is written. */
  end(callback?: () => void): unknown
}

/** Collects the file in memory and emits it as a `Blob` (the browser's target; works in Node too). */
export interface BlobTarget {
  /** Asks for the file as a `Blob`. */
  readonly blob: true
  /** The Blob's content type. @defaultValue the reply's `Content-Type` */
  readonly type?: string
}

/**
 * Where `download$` saves: a file path (Node; written under a temporary name
 * in the same folder and renamed when complete), a Node `Writable`, or
 * `{ blob: true }`.
 */
export type DownloadTarget = string | WritableLike | BlobTarget

/** Bytes written so far; `total` and `fraction` (0 to 1) when the server gave the size. */
export interface DownloadProgress {
  /** Tells a progress event from the final `saved` one. */
  readonly type: 'progress'
  /** Bytes written so far. */
  readonly bytes: number
  /** The file's size in bytes, when the server gave it. */
  readonly total: number | undefined
  /** `bytes` over `total`, from 0 to 1, when the size is known. */
  readonly fraction: number | undefined
}

/** The download is complete. */
export interface DownloadSaved {
  /** Tells the final event from `progress` ones. */
  readonly type: 'saved'
  /** The file's size: every byte written. */
  readonly bytes: number
  /** The final path, for a file target. */
  readonly file?: string
  /** The result, for a Blob target. */
  readonly blob?: Blob
  /** Transfers picked up where they broke, with an HTTP `Range` request. */
  readonly resumed: number
  /** Transfers begun again from byte 0 (the server ignored `Range`, gave no validator to resume with, or the file changed). */
  readonly restarted: number
  /** With `keepPartial`: bytes of the file taken from a partial file an earlier download left (0 when it began from byte 0). */
  readonly fromPartial?: number
  /** With the `sha256` option: the SHA-256 digest of the file saved, in lower-case hex. */
  readonly sha256?: string
}

/** What `download$` emits: progress as bytes arrive, then `saved` once. */
export type DownloadEvent = DownloadProgress | DownloadSaved

/** Options of `download$`. */
export interface DownloadOptions {
  /**
   * When the URL stops working (a completed task event's `expiresAt`). Once
   * passed, the download fails at once with `ResultExpiredError`, before any request.
   * One that cannot be read as a time is refused with `InvalidRequestError`.
   */
  readonly expiresAt?: Date | number | string
  /**
   * Requests after the first, in all, whatever failed (a break, silence, a
   * 5xx, a range that did not fit, a file that changed) and however many
   * bytes came in between: `retries: N` sends at most N + 1 requests for
   * the download. Past it, the download fails with the last error.
   *
   * @defaultValue `3`
   */
  readonly retries?: number
  /**
   * Longest silence (no byte) before the transfer counts as broken and is
   * resumed; the time the target takes to write a chunk does not count. An
   * integer from 1 to 2^31-1, in ms.
   *
   * @defaultValue `60_000`
   */
  readonly timeoutMs?: number
  /**
   * Hosts the download may reach even at a private, loopback or link-local
   * address: a hostname (`files.internal`), a `host:port`, or an origin
   * (`http://127.0.0.1:8080`, e.g. a local gateway's `baseUrl`). Every other
   * such address, a redirect's included, is refused with `InvalidRequestError`.
   *
   * @defaultValue `[]`
   */
  readonly allowHosts?: readonly string[]
  /** Allow every address, private ones included (for development). @defaultValue `false` */
  readonly allowPrivateNetwork?: boolean
  /**
   * A `fetch` to download with (e.g. one that goes through your proxy,
   * which the default does not use). Redirects are still followed one at a
   * time, each URL checked, and in Node each hop's hostname resolved and
   * refused at a private address; but your fetch resolves the name again,
   * so the checked address is not pinned.
   *
   * @defaultValue a `fetch` that connects only to the address it checked
   */
  readonly fetch?: typeof globalThis.fetch
  /**
   * A transport of your own (see `Transport`); takes precedence over `fetch`.
   * No header of any client is added. Which addresses it may reach is its own
   * business: `allowHosts` and `allowPrivateNetwork` do not apply to it.
   */
  readonly transport?: Transport
  /**
   * Keep the partial file of a file target when the download fails, is
   * unsubscribed, or its process dies, and continue it in a later
   * `download$` of the same URL to the same path: the bytes are written to
   * `<target>.part`, and the version they belong to (the server's strong
   * `ETag` or `Last-Modified`, and the URL's origin and path, never its
   * query) to `<target>.part.json`. A later download asks only for the rest,
   * with `Range` and `If-Range`; a server that answers with the whole file (it
   * changed, or it ignores ranges) begins the part again from byte 0. The
   * final name still only ever holds a whole file. One download per target at
   * a time: a second one in this process is refused with `InvalidRequestError`;
   * across processes, give each job its own target. A file target only.
   *
   * @defaultValue `false` (a temporary file of a random name, removed on failure)
   */
  readonly keepPartial?: boolean
  /**
   * A file target: `false` keeps a file (or a link) already at the name when
   * the download completes, and fails with `GatewayError` rather than
   * replace it: the file is given its name only where nothing is, in one
   * step, so one that appears during the download is kept too. `saveResults`
   * passes `false` unless given `overwrite: true`.
   *
   * @defaultValue `true`
   */
  readonly overwrite?: boolean
  /**
   * Hash the file as it is saved: `true` reports the SHA-256 digest in
   * `saved.sha256`; a digest (64 hex digits) is also checked, and a file
   * whose digest differs ends in `ChecksumMismatchError`, with nothing under
   * the final name and no partial file kept (a `Writable` has had the bytes
   * already: it is left as it is, not ended). Bytes continued from a partial
   * file are read back from disk into the digest.
   *
   * @defaultValue `false`
   */
  readonly sha256?: boolean | string
  /**
   * The largest file the download writes, in bytes: a positive safe integer,
   * else `InvalidRequestError` before anything is sent. It counts the bytes
   * written to the target (decoded, when a server compresses anyway), the
   * whole file across resumed ranges and a partial file continued. A
   * `Content-Length` or `Content-Range` size above it is refused before the
   * body is read; a body that grows past it (compressed, or of no announced
   * length) is cut off at the limit. Either ends in `PayloadTooLargeError`
   * (`limit: 'maxBytes'`), with no retry, nothing under the final name, and
   * no partial file kept, `keepPartial` or not (a retry would only meet the
   * same limit); a `Writable` keeps the bytes it has taken, never more than the limit.
   *
   * @defaultValue 4 GiB (`DEFAULT_MAX_BYTES`) for a file or a `Writable`;
   * 1 GiB (`DEFAULT_MAX_BLOB_BYTES`) for `{ blob: true }`, held in memory.
   * Both far above a generated video, and small enough to stop a host that
   * sends without end.
   */
  readonly maxBytes?: number
  /** A `Writable` target is ended when the download completes. @defaultValue `true` */
  readonly end?: boolean
  /** Scheduler of the silence timer, the waits between attempts and the expiry check. @defaultValue RxJS's `asyncScheduler` */
  readonly scheduler?: SchedulerLike
}
