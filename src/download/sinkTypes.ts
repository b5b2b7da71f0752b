import type { DownloadSaved } from './types.js'

/** The version of the file a part's bytes belong to, as the reply that began them said. */
export interface PartVersion {
  /** A strong `ETag`, else `Last-Modified`, when the server serves ranges: what `If-Range` carries. None: never continued. */
  readonly validator: string | undefined
  /** `ETag` and `Last-Modified` as sent: a continuing 206 must carry the same. */
  readonly version: string
  /** The whole file's size, when the server gave it. */
  readonly total: number | undefined
}

/** Bytes an earlier download left on disk, and the version they belong to. */
export interface Leftover extends PartVersion {
  readonly validator: string
  /** How many bytes are on disk: the next request asks from there. */
  readonly bytes: number
  /** The bytes on disk, in order (read back into a digest). */
  read(): AsyncIterable<Uint8Array>
}

/** Where a download's bytes go, whatever the target. Calls never overlap, except `discard`, which may come at any time. */
export interface Sink {
  write(chunk: Uint8Array): Promise<void>
  /** Begins again at byte 0; resolves false when the target cannot (a stream already written to). */
  restart(): Promise<boolean>
  /** Every byte is written: the target becomes the result (the file gets its final name, the stream ends, the Blob is made). */
  finish(type: string | undefined): Promise<Pick<DownloadSaved, 'file' | 'blob' | 'sha256'>>
  /**
   * Given up: removes what was written where it can (the temporary file). A
   * sink that keeps partial files keeps its own, unless `scrap` (its bytes are
   * known to be wrong). Never rejects.
   */
  discard(scrap?: boolean): Promise<void>
  /** A sink that keeps partial files: what an earlier download left to continue, or undefined (then nothing is left). Called once, first. */
  leftover?(): Promise<Leftover | undefined>
  /** A sink that keeps partial files: a reply from byte 0 was taken; records its version before its first byte. */
  begin?(version: PartVersion): Promise<void>
}
