import { GatewayError, isNamed } from './GatewayError.js'
import { listIssues, type RequestIssue } from './issues.js'

export type { RequestIssue }

/**
 * The caller's input broke a rule of the gateway's interface. Raised before
 * anything is sent: no request left the process.
 *
 * @example
 * ```ts
 * responses$(client, { model: 'm', temperature: 3 }).subscribe({ error: (e) => console.log(e.message) })
 * // Output: Invalid request: temperature: must be from 0 to 2 (got 3). Nothing was sent.
 * ```
 */
export class InvalidRequestError extends GatewayError {
  /** Always `'InvalidRequestError'`; test it with {@link isInvalidRequestError}. */
  override name = 'InvalidRequestError' as const
  /** Each broken rule of the input, by path. */
  readonly issues: readonly RequestIssue[]

  constructor(issues: readonly RequestIssue[], what = 'request') {
    super(`Invalid ${what}: ${listIssues(issues)}. Nothing was sent.`)
    this.issues = issues
  }
}

/** Whether `value` is an {@link InvalidRequestError}, from any copy of rxgate. */
export const isInvalidRequestError = isNamed<InvalidRequestError>('InvalidRequestError')
