import { GatewayError } from './GatewayError.js'

/** One broken rule: the field's dotted path and what the rule demands. */
export interface RequestIssue {
  readonly path: string
  readonly message: string
}

/**
 * The caller's input broke a rule of the gateway's interface. Raised before
 * anything is sent: no request left the process.
 *
 * @example
 * ```ts
 * gateway.responses$({ model: 'm', temperature: 3 }).subscribe({ error: (e) => console.log(e.message) })
 * // Output: Invalid request: temperature: must be at most 2 (got 3). Nothing was sent.
 * ```
 */
export class InvalidRequestError extends GatewayError {
  override name = 'InvalidRequestError' as const
  readonly issues: readonly RequestIssue[]

  constructor(issues: readonly RequestIssue[], what = 'request') {
    const list = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
    super(`Invalid ${what}: ${list}. Nothing was sent.`)
    this.issues = issues
  }
}
