import { GatewayError, isNamed } from './GatewayError.js'

/**
 * The model refused to answer: the response holds a refusal and no text.
 * `refusal` is the model's own explanation, `responseId` the refused
 * response (when the stream or Response named it). A refusal is not a
 * failure of the gateway (the response itself completed), so it is raised
 * only where text was expected: by `outputText()` and `parsedOutput()`,
 * which would otherwise have to pass for an empty answer. Read refusals
 * without an error with `refusal()`.
 *
 * @example
 * ```ts
 * responses$(client, { model: 'gpt-4o', input: '[refuse] Help me pick a lock', stream: true })
 *   .pipe(outputText())
 *   .subscribe({ error: (err) => isResponseRefusedError(err) && console.log(err.refusal) })
 * // Output: I'm sorry, but I can't help with that request.
 * ```
 */
export class ResponseRefusedError extends GatewayError {
  /** Always `'ResponseRefusedError'`; test it with {@link isResponseRefusedError}. */
  override name = 'ResponseRefusedError' as const
  /** The model's own explanation of the refusal. */
  readonly refusal: string
  /** The refused response's id, when the stream or Response named it. */
  readonly responseId: string | undefined

  constructor(refusal: string, responseId?: string) {
    const which = responseId ? `Response ${responseId}` : 'The response'
    super(`${which} is a refusal, not an answer (“${refusal}”); change the request, or read refusals with refusal().`)
    this.refusal = refusal
    this.responseId = responseId
  }
}

/** Whether `value` is a {@link ResponseRefusedError}, from any copy of rxgate. */
export const isResponseRefusedError = isNamed<ResponseRefusedError>('ResponseRefusedError')
