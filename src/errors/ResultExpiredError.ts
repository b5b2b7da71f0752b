import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A result URL (a video or image of a completed task) can no longer be
 * downloaded: its `expiresAt` had passed before the download began, so
 * nothing was requested; or its server answered 410 Gone; or it answered
 * 400/403 with a body saying the signature expired (S3, OSS, GCS and Azure
 * storage word it each their own way). Video URLs stay valid for one hour
 * after generation; save results as soon as a task completes
 * (`saveResults`), or generate them again.
 *
 * @example
 * ```ts
 * download$(url, 'out/video.mp4', { expiresAt: new Date(Date.now() - 1) }).subscribe({
 *   error: (err) => console.log(isResultExpiredError(err), err.requested),
 * })
 * // Output: true false
 * ```
 */
export class ResultExpiredError extends GatewayError {
  /** Always `'ResultExpiredError'`; test it with {@link isResultExpiredError}. */
  override name = 'ResultExpiredError' as const
  /** The URL's path (its signed query stays out of errors and logs). */
  readonly path: string
  /** When the URL stopped working, when known. */
  readonly expiresAt: Date | undefined
  /** False when it was refused before any request (from `expiresAt`); true when the server said so. */
  readonly requested: boolean
  /** The status the server answered (410, or a 400/403 whose body says the signature expired); undefined when nothing was requested. */
  readonly status: number | undefined

  constructor(path: string, expiresAt: Date | undefined, requested: boolean, status = 410) {
    const when = expiresAt ? ` at ${expiresAt.toISOString()}` : ''
    const said = status === 410 ? 'the result URL has expired' : 'the storage says the signed result URL has expired'
    super(
      requested
        ? `GET ${path} answered ${status}: ${said}${when}. Result URLs stay valid for 1 hour after generation; save results as soon as the task completes.`
        : `The result URL ${path} expired${when}, so nothing was requested. Result URLs stay valid for 1 hour after generation; save results as soon as the task completes, or generate them again.`,
    )
    this.path = path
    this.expiresAt = expiresAt
    this.requested = requested
    this.status = requested ? status : undefined
  }
}

/** Whether `value` is a {@link ResultExpiredError}, from any copy of rxgate. */
export const isResultExpiredError = isNamed<ResultExpiredError>('ResultExpiredError')
