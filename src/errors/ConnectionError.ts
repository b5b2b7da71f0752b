import { GatewayError, isNamed } from './GatewayError.js'

/**
 * The connection to the gateway failed or closed early.
 *
 * `sent` is false only when the request certainly never reached the server
 * (connection refused, host not found): such a request is safe to send again
 * even when it creates something.
 */
export class ConnectionError extends GatewayError {
  /** Always `'ConnectionError'`; test it with {@link isConnectionError}. */
  override name = 'ConnectionError' as const
  /** The request's method. */
  readonly method: string
  /** The request's path (no host, no key). */
  readonly path: string
  /** False only when the request certainly never reached the server, so sending it again cannot do anything twice. */
  readonly sent: boolean

  constructor(method: string, path: string, detail: string, sent: boolean, cause?: unknown) {
    super(`${method} ${path}: ${detail}`, cause === undefined ? undefined : { cause })
    this.method = method
    this.path = path
    this.sent = sent
  }
}

/** Whether `value` is a {@link ConnectionError}, from any copy of rxgate. */
export const isConnectionError = isNamed<ConnectionError>('ConnectionError')
