import type { TaskEndpoint } from '../endpoints.js'
import { GatewayError } from './GatewayError.js'

/**
 * A task did not finish within its deadline. The task itself goes on at the
 * gateway (and is paid for): `taskId` and `endpoint` let the caller follow it
 * again with `gateway.task$(error.endpoint, error.taskId)`.
 */
export class TaskTimeoutError extends GatewayError {
  override name = 'TaskTimeoutError' as const
  readonly taskId: string
  readonly endpoint: TaskEndpoint
  readonly deadlineMs: number
  readonly lastStatus: string | undefined

  constructor(taskId: string, endpoint: TaskEndpoint, deadlineMs: number, lastStatus: string | undefined) {
    super(
      `Task ${taskId} (${endpoint.name}) did not finish within ${Math.round(deadlineMs / 1000)} s` +
        `${lastStatus ? `; last status: ${lastStatus}` : ''}. It may still finish on the gateway: ` +
        `follow it with gateway.task$(endpoint, '${taskId}').`,
    )
    this.taskId = taskId
    this.endpoint = endpoint
    this.deadlineMs = deadlineMs
    this.lastStatus = lastStatus
  }
}
