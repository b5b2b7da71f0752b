import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { isValidationError, ValidationError } from '../errors/ValidationError.js'

/**
 * The most result files of one task that `saveResults` (and the CLI's
 * `--out`) downloads unless `maxFiles` says otherwise: 16. A video task has
 * one result and an image task a few; a gateway that lists thousands of URLs
 * would otherwise fill a disk one file at a time.
 */
export const DEFAULT_MAX_FILES = 16

/**
 * `maxFiles` as given, checked (a positive safe integer, else an
 * `InvalidRequestError` before anything is sent), or {@link DEFAULT_MAX_FILES}.
 *
 * @example
 * ```ts
 * maxFilesOf(undefined) // 16
 * maxFilesOf(100)       // 100
 * maxFilesOf(0)         // throws InvalidRequestError (maxFiles)
 * ```
 */
export function maxFilesOf(maxFiles: unknown, what = 'saveResults'): number {
  if (maxFiles === undefined) return DEFAULT_MAX_FILES
  if (typeof maxFiles === 'number' && Number.isSafeInteger(maxFiles) && maxFiles >= 1) return maxFiles
  const shown = typeof maxFiles === 'number' ? String(maxFiles) : typeof maxFiles
  throw new InvalidRequestError([{ path: 'maxFiles', message: `must be an integer of at least 1 (got ${shown})` }], what)
}

/**
 * Fails a completed task that lists more result URLs than `maxFiles`, before
 * any of them is downloaded: a `ValidationError` of the task result (the
 * reply is the gateway's, over a bound of this library's), its issue at
 * `urls`, carrying the task's id; its `payload` holds every URL, signed.
 * `advice` ends the message: what the caller can do about it.
 *
 * @example
 * ```ts
 * checkFileCount('t', ['https://cdn.example/a.png'], 16, 'pass a larger maxFiles') // returns
 * checkFileCount('t', Array(17).fill('https://cdn.example/a.png'), 16, 'pass a larger maxFiles') // throws ValidationError
 * ```
 */
export function checkFileCount(taskId: string, urls: readonly string[], maxFiles: number, advice: string): void {
  if (urls.length <= maxFiles) return
  const message = `lists ${urls.length} result files, more than the ${maxFiles} allowed (maxFiles); none was downloaded (${advice})`
  const error = new ValidationError('task result', [{ path: 'urls', message }], urls)
  error.taskId = taskId
  throw error
}

/**
 * Whether `error` is the refusal {@link checkFileCount} throws: the task is
 * done, and its results wait at the gateway until they expire.
 *
 * @example
 * ```ts
 * saveResults('out').pipe(catchError((e) => (isFileCountError(e) ? of(e.payload) : throwError(() => e))))
 * ```
 */
export function isFileCountError(error: unknown): error is ValidationError {
  return isValidationError(error) && error.issues.length === 1 && error.issues[0]!.path === 'urls' && Array.isArray(error.payload)
}
