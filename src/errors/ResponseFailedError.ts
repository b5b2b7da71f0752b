import { GatewayError, isNamed } from './GatewayError.js'

/**
 * The gateway reported that generating a response failed: a Response with
 * `status: "failed"`, a `response.failed` event, or an `error` event.
 * `code` and `message` are the gateway's own; `response` is the failed
 * Response when there was one.
 */
export class ResponseFailedError<R = unknown> extends GatewayError {
  /** Always `'ResponseFailedError'`; test it with {@link isResponseFailedError}. */
  override name = 'ResponseFailedError' as const
  /** The failed response's id, when the gateway named it. */
  readonly responseId: string | undefined
  /** The gateway's error code, when it gave one. */
  readonly code: string | number | undefined
  /** The failed Response itself, when there was one. */
  readonly response: R | undefined

  constructor(
    detail: { responseId?: string | undefined; code?: string | number | null | undefined; message?: string | null | undefined },
    response?: R,
  ) {
    const where = detail.responseId ? `Response ${detail.responseId}` : 'The response'
    const code = detail.code == null ? '' : ` [${detail.code}]`
    super(`${where} failed${code}: ${detail.message || 'the gateway gave no reason'}`)
    this.responseId = detail.responseId
    this.code = detail.code ?? undefined
    this.response = response
  }
}

/** Whether `value` is a {@link ResponseFailedError}, from any copy of rxgate. */
export const isResponseFailedError = isNamed<ResponseFailedError>('ResponseFailedError')
