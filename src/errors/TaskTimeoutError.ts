import type { TaskEndpoint } from '../contract/endpoint.js'
import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A task did not finish within its deadline. The task itself goes on at the
 * gateway (and is paid for): `taskId` and `endpoint` let the caller follow it
 * again with `task$(client, error.endpoint, error.taskId)`. `cause` is the
 * last read's failure when the deadline came while reads were failing.
 */
export class TaskTimeoutError extends GatewayError {
  /** Always `'TaskTimeoutError'`; test it with {@link isTaskTimeoutError}. */
  override name = 'TaskTimeoutError' as const
  declare taskId: string
  declare endpoint: TaskEndpoint
  /** The deadline that passed, in milliseconds (`taskDeadlineMs` or the call's own). */
  readonly deadlineMs: number
  /** The task's last status read before the deadline, if any was read. */
  readonly lastStatus: string | undefined

  constructor(taskId: string, endpoint: TaskEndpoint, deadlineMs: number, lastStatus: string | undefined, cause?: unknown) {
    super(
      `Task ${taskId} (${endpoint.name}) did not finish within ${Number((deadlineMs / 1000).toFixed(3))} s` +
        `${lastStatus ? `; last status: ${lastStatus}` : ''}. It may still finish on the gateway: ` +
        `follow it with task$(client, endpoint, '${taskId}').`,
      cause === undefined ? undefined : { cause },
    )
    this.taskId = taskId
    this.endpoint = endpoint
    this.deadlineMs = deadlineMs
    this.lastStatus = lastStatus
  }
}

/** Whether `value` is a {@link TaskTimeoutError}, from any copy of rxgate. */
export const isTaskTimeoutError = isNamed<TaskTimeoutError>('TaskTimeoutError')
