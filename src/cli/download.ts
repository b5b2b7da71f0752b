import { lstatSync } from 'node:fs'
import { defer, filter, map, tap, throwError, type Observable } from 'rxjs'
import { download$ as downloadEvents$ } from '../download/download$.js'
import type { DownloadProgress, DownloadSaved } from '../download/types.js'
import { OutputExistsError } from './outputExistsError.js'

/** Options of the CLI's {@link download$}. */
export interface CliDownloadOptions {
  /** When the URL stops working: past it, nothing is requested. */
  readonly expiresAt?: Date
  /** Told as bytes arrive (the CLI draws its progress bar from it). */
  readonly onProgress?: (progress: DownloadProgress) => void
  /**
   * Hosts reachable at a private address, as `download$` takes them; a URL
   * counts for its origin. The CLI passes the gateway's `baseUrl`: a local
   * gateway or simulator serves its results itself.
   */
  readonly allowHosts?: readonly string[]
  /** Replace a file already at `file` (`--overwrite`); otherwise the download fails with `OutputExistsError` before any request. */
  readonly overwrite?: boolean
}

/**
 * Downloads a result URL to `file` with rxgate's `download$` (no credentials
 * sent, a dropped transfer resumed with `Range`, no partial file left under
 * the final name, aborted on unsubscribe), then emits the file's size in bytes.
 * Anything already at `file` (a link included) is kept, and nothing is
 * requested, unless `overwrite` is set; so is a file that appears there
 * while the result downloads (the download then fails).
 */
export function download$(url: string, file: string, options: CliDownloadOptions = {}): Observable<number> {
  const allowHosts = options.allowHosts?.map(originOf)
  // Checked at subscription, not when the Observable is made: the file may appear in between.
  return defer(() => (!options.overwrite && lstatSync(file, { throwIfNoEntry: false }) ? throwError(() => new OutputExistsError(file)) : saved$(url, file, options, allowHosts)))
}

function saved$(url: string, file: string, options: CliDownloadOptions, allowHosts: string[] | undefined): Observable<number> {
  // `overwrite` reaches the file's last step too: one that appears while the result downloads is kept as well.
  const overwrite = options.overwrite === true
  return downloadEvents$(url, file, { ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}), ...(allowHosts ? { allowHosts } : {}), overwrite }).pipe(
    tap((event) => {
      if (event.type === 'progress') options.onProgress?.(event)
    }),
    filter((event): event is DownloadSaved => event.type === 'saved'),
    map((saved) => saved.bytes),
  )
}

/** A URL's origin (a `baseUrl` may carry a path, which `allowHosts` does not take); anything else as it is. */
function originOf(entry: string): string {
  return URL.canParse(entry) && /^https?:/i.test(entry) ? new URL(entry).origin : entry
}
