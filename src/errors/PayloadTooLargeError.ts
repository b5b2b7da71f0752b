import { GatewayError, isNamed } from './GatewayError.js'

/** Which size limit a reply broke: one stream event, one JSON body (client options), or a downloaded file (`download$`'s `maxBytes`). */
export type SizeLimit = 'maxEventBytes' | 'maxBodyBytes' | 'maxBytes'

/**
 * A reply was larger than the client accepts: one stream event over
 * `maxEventBytes`, one JSON body over `maxBodyBytes`, or a downloaded file
 * over `download$`'s `maxBytes` (decoded bytes, the whole file). The request was
 * aborted as soon as the limit was passed, so memory stays bounded.
 */
export class PayloadTooLargeError extends GatewayError {
  /** Always `'PayloadTooLargeError'`; test it with {@link isPayloadTooLargeError}. */
  override name = 'PayloadTooLargeError' as const
  /** The option whose limit was passed (of the client, or of `download$`). */
  readonly limit: SizeLimit
  /** That limit, in bytes. */
  readonly limitBytes: number
  /** The request's method. */
  readonly method: string
  /** The request's path (no host, no key). */
  readonly path: string

  constructor(method: string, path: string, limit: SizeLimit, limitBytes: number) {
    const what = limit === 'maxEventBytes' ? 'a stream event' : limit === 'maxBytes' ? 'the file' : 'the reply body'
    const options = limit === 'maxBytes' ? 'download' : 'client'
    super(`${method} ${path}: ${what} is larger than ${limitBytes} bytes; the request was aborted. Raise ${limit} in the ${options} options if such replies are expected.`)
    this.limit = limit
    this.limitBytes = limitBytes
    this.method = method
    this.path = path
  }
}

/** Whether `value` is a {@link PayloadTooLargeError}, from any copy of rxgate. */
export const isPayloadTooLargeError = isNamed<PayloadTooLargeError>('PayloadTooLargeError')
