import type { TaskEndpoint } from '../contract/endpoint.js'
import { GatewayError, isNamed } from './GatewayError.js'
import { answered, isHttpError } from './HttpError.js'
import { resendAdvice } from './resendAdvice.js'

/**
 * A task creation whose outcome is unknown: the request may have reached the
 * gateway (the connection broke or timed out after it was sent, the gateway
 * failed with a 5xx, or a 2xx reply could not be read), so the task may exist
 * and be paid for. `taskId` is set when any reply held a readable one;
 * `idempotencyKey` is the `Idempotency-Key` the creation was sent with;
 * `cause` is the failure.
 *
 * To recover without paying twice: with a `taskId`, follow it with
 * `task$(client, error.endpoint, error.taskId)`. Otherwise create again with
 * `{ idempotencyKey: error.idempotencyKey }` only on a gateway that honours
 * `Idempotency-Key` (then you get the same task), or look for the task in the
 * gateway's records before creating another. The message says which: sent
 * with a key the caller chose (`chosen`) or to a gateway the client says
 * honours keys (`honoured`, from `idempotentCreate`), that sending again with
 * the key is safe; otherwise that `idempotentCreate: true` or an explicit
 * `idempotencyKey` makes it so.
 */
export class TaskCreationUnknownError extends GatewayError {
  /** Always `'TaskCreationUnknownError'`; test it with {@link isTaskCreationUnknownError}. */
  override name = 'TaskCreationUnknownError' as const
  declare endpoint: TaskEndpoint
  /** The `Idempotency-Key` the creation was sent with: send it again with this key only where the gateway honours keys. */
  readonly idempotencyKey: string

  constructor(init: { endpoint: TaskEndpoint; idempotencyKey: string; taskId?: string | undefined; cause: unknown; chosen?: boolean; honoured?: boolean }) {
    const { cause } = init
    // An HttpError's own advice ("try again later") is not for paid work: only what was answered is kept.
    const what = isHttpError(cause)
      ? answered(cause.method, cause.path, cause.status, cause.gatewayMessage, cause.requestId)
      : cause instanceof Error
        ? cause.message.replace(/\.$/, '')
        : String(cause)
    const key = { idempotencyKey: init.idempotencyKey, chosen: init.chosen === true, honoured: init.honoured === true }
    const recover = init.taskId
      ? `Task ${init.taskId} was reported: follow it with task$(client, endpoint, '${init.taskId}') instead of creating it again.`
      : key.honoured
        ? resendAdvice(key, 'task')
        : `${resendAdvice(key, 'task').replace(/\.$/, '')}; otherwise check the gateway for the task first.`
    super(`Creating a task at ${init.endpoint.name} may have succeeded (${what}): the task may exist and be paid for. ${recover}`, { cause: init.cause })
    this.endpoint = init.endpoint
    this.idempotencyKey = init.idempotencyKey
    if (init.taskId) this.taskId = init.taskId
  }
}

/** Whether `value` is a {@link TaskCreationUnknownError}, from any copy of rxgate. */
export const isTaskCreationUnknownError = isNamed<TaskCreationUnknownError>('TaskCreationUnknownError')
