import { GatewayError } from './GatewayError.js'

/**
 * The gateway went silent for longer than `timeoutMs`: no reply, or no next
 * chunk of a streamed reply. The request was aborted.
 */
export class TimeoutError extends GatewayError {
  override name = 'TimeoutError' as const
  readonly method: string
  readonly path: string
  readonly timeoutMs: number

  constructor(method: string, path: string, timeoutMs: number) {
    super(
      `${method} ${path}: no answer within ${timeoutMs} ms; the request was aborted. ` +
        'Raise timeoutMs in createGateway() if the gateway is slow.',
    )
    this.method = method
    this.path = path
    this.timeoutMs = timeoutMs
  }
}
