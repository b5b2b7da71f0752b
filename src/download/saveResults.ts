import { concatMap, defer, filter, from, map, mergeMap, switchMap, type OperatorFunction } from 'rxjs'
import type { TaskEvent } from '../operators/pollTask.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { download$ } from './download$.js'
import { maxBytesOf } from './maxBytes.js'
import { checkFileCount, maxFilesOf } from './maxFiles.js'
import { nodeModules } from './nodeModules.js'
import { resultExtension } from './resultExtension.js'
import { resultFile } from './resultFile.js'
import type { DownloadEvent, DownloadOptions } from './types.js'

/** Options of {@link saveResults}: those of `download$` (its `expiresAt` comes from each event), and how many tasks save at once. */
export interface SaveResultsOptions extends Omit<DownloadOptions, 'expiresAt' | 'end' | 'sha256'> {
  /** `true`: each `saved` event carries the file's SHA-256 digest (`sha256`). One expected digest cannot fit several files, so none is taken here. @defaultValue `false` */
  readonly sha256?: boolean
  /** Tasks whose files are saved at once (each task's files one after another): an integer of at least 1. @defaultValue `4` */
  readonly concurrency?: number
  /**
   * `true`: a file already at a result's name (from an earlier run, or put
   * there by anyone) is replaced. By default it is refused with
   * `InvalidRequestError` before any request: the task id that names the file
   * is the gateway's to choose. One that appears during the download is kept
   * too: the save fails with `GatewayError`. @defaultValue `false`
   */
  readonly overwrite?: boolean
  /**
   * The most result files one task may list: a completed task with more fails
   * with `ValidationError` (issue at `urls`) before any download, as a
   * gateway's reply could list thousands. An integer of at least 1.
   * @defaultValue `16`
   */
  readonly maxFiles?: number
}

/** A `download$` event of one result file, with the task and the file it belongs to. */
export type SaveResultsEvent = DownloadEvent & {
  /** The task whose result this is. */
  readonly taskId: string
  /** The URL's position in the task's `urls`, from 1. */
  readonly index: number
  /** Where the file is saved: `<dir>/<taskId>-<index>.<ext>`, the task id in lower case. */
  readonly file: string
}

/**
 * Saves every result of each completed task into `dir` (Node), before the
 * URLs expire: `<taskId>-<index>.<ext>` (the task id in lower case, `index`
 * from 1, the extension from the URL when it is a media one of the result's
 * kind (`mp4`, `webm`, `mov`, `m4v`, `mkv`; `png`, `jpg`, `jpeg`, `webp`, `gif`, `avif`, `heic`, `bmp`, `tif`, `tiff`),
 * else `mp4` for a video and `png` for an image). `dir` may not be the root
 * folder (`/`). A task listing more than `maxFiles` URLs (16) fails with
 * `ValidationError` before any request. Other task events
 * are let go. Emits each file's `progress` and `saved` events with `taskId`,
 * `index` and `file`; completes when the source has and every file is saved.
 * A URL already past its `expiresAt` fails with `ResultExpiredError` before
 * any request. A task id that is neither a UUID nor a plain name (letters,
 * digits, `_`, `-`), or a file that would land outside `dir`, fails with
 * `InvalidRequestError` before any request; so does a file already at that
 * name which this subscription did not write (a task id is the gateway's
 * choice), unless `overwrite: true`. Downloads take the options of
 * `download$`: a result host at a private address (a local simulator) needs
 * `allowHosts`; `maxBytes` bounds each file (default 4 GiB; a `maxBytes` that
 * is not a positive safe integer is an `InvalidRequestError` at once), and a
 * file past it fails with `PayloadTooLargeError`, leaving no file. Unsubscribing aborts the downloads and leaves no partial file (with
 * `keepPartial`, the part of each file is kept for a later call to resume).
 *
 * @example
 * ```ts
 * import { createClient, textToVideo$, saveResults } from 'rxgate'
 * textToVideo$(client, { prompt: 'A red kite over a grey sea' })
 *   .pipe(saveResults('out'))
 *   .subscribe((e) => e.type === 'saved' && console.log(e.file))
 * // Output: out/0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11-1.mp4
 * ```
 */
export function saveResults(dir: string, options: SaveResultsOptions = {}): OperatorFunction<TaskEvent, SaveResultsEvent> {
  if (typeof dir !== 'string') throw new InvalidRequestError([{ path: 'dir', message: `must be a folder path (got ${dir === null ? 'null' : typeof dir})` }], 'saveResults')
  // `/` trimmed of its separator would be '', the working folder: refused rather than read either way (often `${empty}/`).
  if (/^[\\/]+$/.test(dir)) throw new InvalidRequestError([{ path: 'dir', message: `is the root folder (got ${JSON.stringify(dir)}); name a folder to save into` }], 'saveResults')
  const { concurrency = 4, overwrite = false, maxFiles: givenMaxFiles, ...download } = options ?? {}
  // 0, a negative or NaN would make mergeMap hold every task and never start one.
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new InvalidRequestError([{ path: 'concurrency', message: `must be an integer of at least 1 (got ${String(concurrency)})` }], 'saveResults')
  }
  if (download.sha256 !== undefined && typeof download.sha256 !== 'boolean') {
    throw new InvalidRequestError([{ path: 'sha256', message: 'must be true or false here: one expected digest cannot fit several files (check each with download$)' }], 'saveResults')
  }
  if (typeof overwrite !== 'boolean') throw new InvalidRequestError([{ path: 'overwrite', message: `must be true or false (got ${typeof overwrite})` }], 'saveResults')
  // Checked here too, at once, as `concurrency` is: a bad bound fails the call, not each file later.
  maxBytesOf(download.maxBytes, undefined, 'saveResults')
  const maxFiles = maxFilesOf(givenMaxFiles)
  const folder = dir.replace(/[\\/]+$/, '') || '.'
  return (source) =>
    defer(() => {
      // The names this subscription has written to: a later file of the same name (ids differing only in case) replaces its own.
      const ours = new Set<string>()
      return source.pipe(
        filter((event): event is Extract<TaskEvent, { type: 'completed' }> => event.type === 'completed'),
        mergeMap((done) => {
          // Counted before any file is named or fetched: a reply can list far more URLs than any task has results.
          checkFileCount(done.taskId, done.urls, maxFiles, 'pass a larger maxFiles if such tasks are expected')
          return from(done.urls.map((url, i) => ({ url, index: i + 1 }))).pipe(
            concatMap(({ url, index }) =>
              defer(async () => {
                // Only video results carry `expiresAt`: it tells the kind where the URL does not.
                const file = resultFile(folder, done.taskId, index, resultExtension(url, done.expiresAt ? 'video' : 'image'))
                const replace = overwrite || ours.has(file)
                // Checked first, so that a name already taken costs no request; the download's last step
                // keeps a file that appears meanwhile too (`overwrite: false` reaches the file sink).
                if (!replace && (await taken(file))) throw alreadyThere(file)
                ours.add(file)
                return { file, replace }
              }).pipe(
                switchMap(({ file, replace }) => {
                  const expiry = done.expiresAt ? { expiresAt: done.expiresAt } : {}
                  return download$(url, file, { ...download, ...expiry, overwrite: replace }).pipe(map((event): SaveResultsEvent => ({ ...event, taskId: done.taskId, index, file })))
                }),
              ),
            ),
          )
        }, concurrency),
      )
    })
}

/**
 * Whether anything is at `file`: a file, a folder, or a link (a dangling one
 * too: it is not followed). A name that cannot be looked at (no folder yet,
 * no permission) is free here; writing it says what is wrong.
 */
async function taken(file: string): Promise<boolean> {
  return nodeModules().fs.lstat(file).then(
    () => true,
    () => false,
  )
}

function alreadyThere(file: string): InvalidRequestError {
  return new InvalidRequestError([{ path: 'file', message: `${file} already exists; saveResults replaces no file unless given overwrite: true` }], 'saveResults')
}

