import { GatewayError, isNamed } from './GatewayError.js'
import type { RequestIssue } from './InvalidRequestError.js'
import { listIssues } from './issues.js'

/**
 * A payload from the gateway does not have the shape the interface promises.
 * `issues` names each broken rule by path; `payload` is what arrived (the
 * parsed JSON, or the raw text when it was not JSON).
 */
export class ValidationError extends GatewayError {
  /** Always `'ValidationError'`; test it with {@link isValidationError}. */
  override name = 'ValidationError' as const
  /** Each broken rule of the payload, by path. */
  readonly issues: readonly RequestIssue[]
  /** What arrived: the parsed JSON, or the raw text when it was not JSON. */
  readonly payload: unknown

  constructor(what: string, issues: readonly RequestIssue[], payload: unknown) {
    super(`Unexpected ${what} from the gateway: ${listIssues(issues)}.`)
    this.issues = issues
    this.payload = payload
  }
}

/** Whether `value` is a {@link ValidationError}, from any copy of rxgate. */
export const isValidationError = isNamed<ValidationError>('ValidationError')
