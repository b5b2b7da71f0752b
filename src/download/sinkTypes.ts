import type { DownloadSaved } from './types.js'

/** Where a download's bytes go, whatever the target. Calls never overlap, except `discard`, which may come at any time. */
export interface Sink {
  write(chunk: Uint8Array): Promise<void>
  /** Begins again at byte 0; resolves false when the target cannot (a stream already written to). */
  restart(): Promise<boolean>
  /** Every byte is written: the target becomes the result (the file gets its final name, the stream ends, the Blob is made). */
  finish(type: string | undefined): Promise<Pick<DownloadSaved, 'file' | 'blob'>>
  /** Given up: removes what was written where it can (the temporary file). Never rejects. */
  discard(): Promise<void>
}
