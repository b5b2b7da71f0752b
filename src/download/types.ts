import type { SchedulerLike } from 'rxjs'
import type { Transport } from '../transport/types.js'

/**
 * What `download$` needs of a Node `Writable` (any `fs.WriteStream`,
 * socket, `PassThrough`, HTTP response): written to chunk by chunk, each
 * awaited, so a slow target slows the download down instead of filling memory.
 */
export interface WritableLike {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean
  end(callback?: () => void): unknown
}

/** Collects the file in memory and emits it as a `Blob` (the browser's target; works in Node too). */
export interface BlobTarget {
  readonly blob: true
  /** The Blob's content type. Default: the reply's `Content-Type`. */
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
  readonly type: 'progress'
  readonly bytes: number
  readonly total: number | undefined
  readonly fraction: number | undefined
}

/** The download is complete. */
export interface DownloadSaved {
  readonly type: 'saved'
  readonly bytes: number
  /** The final path, for a file target. */
  readonly file?: string
  /** The result, for a Blob target. */
  readonly blob?: Blob
  /** Transfers picked up where they broke, with an HTTP `Range` request. */
  readonly resumed: number
  /** Transfers begun again from byte 0 (the server ignored `Range`, or the file changed). */
  readonly restarted: number
}

/** What `download$` emits: progress as bytes arrive, then `saved` once. */
export type DownloadEvent = DownloadProgress | DownloadSaved

/** Options of `download$`. */
export interface DownloadOptions {
  /**
   * When the URL stops working (a completed task event's `expiresAt`). Once
   * passed, the download fails at once with `ResultExpiredError`, before any request.
   */
  readonly expiresAt?: Date | number | string
  /** Breaks in a row (no new byte in between) survived by resuming or starting over. Default 3. */
  readonly retries?: number
  /** Longest silence (no byte) before the transfer counts as broken and is resumed. Default 60,000 ms. */
  readonly timeoutMs?: number
  /** A `fetch` to download with. Default: `globalThis.fetch` (which follows redirects, as signed URLs often need). */
  readonly fetch?: typeof globalThis.fetch
  /** A transport of your own (see `Transport`); takes precedence over `fetch`. No header of any client is added. */
  readonly transport?: Transport
  /** A `Writable` target is ended when the download completes. Default true. */
  readonly end?: boolean
  /** Scheduler of the silence timer, the waits between attempts and the expiry check. */
  readonly scheduler?: SchedulerLike
}
