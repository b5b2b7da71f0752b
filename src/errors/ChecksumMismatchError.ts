import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A download's bytes do not have the SHA-256 digest the caller expected
 * (`download$`'s `sha256` option): the file served is not the one
 * expected, or bytes continued from a partial file on disk were not what
 * that file held. Nothing is saved under the final name, and the partial
 * file is removed, so downloading again begins from byte 0.
 *
 * @example
 * ```ts
 * download$(url, 'out/kite.mp4', { sha256: expected }).subscribe({
 *   error: (err) => { if (isChecksumMismatchError(err)) console.log(err.expected, err.actual) },
 * })
 * ```
 */
export class ChecksumMismatchError extends GatewayError {
  /** Always `'ChecksumMismatchError'`; test it with {@link isChecksumMismatchError}. */
  override name = 'ChecksumMismatchError' as const
  /** The URL's path (its signed query stays out of errors and logs). */
  readonly path: string
  /** The digest asked for, in lower-case hex. */
  readonly expected: string
  /** The digest of the bytes received, in lower-case hex. */
  readonly actual: string
  /** How many bytes were received. */
  readonly bytes: number

  constructor(init: { path: string; expected: string; actual: string; bytes: number }) {
    super(
      `GET ${init.path}: the ${init.bytes} bytes received have SHA-256 ${init.actual}, not the expected ${init.expected}. ` +
        'Nothing was saved and no partial file is kept; download it again, and if the digest differs again, the file served is not the one expected.',
    )
    this.path = init.path
    this.expected = init.expected
    this.actual = init.actual
    this.bytes = init.bytes
  }
}

/** Whether `value` is a {@link ChecksumMismatchError}, from any copy of rxgate. */
export const isChecksumMismatchError = isNamed<ChecksumMismatchError>('ChecksumMismatchError')
