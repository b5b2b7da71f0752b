import type { TaskEndpoint } from '../contract/endpoint.js'
import { GatewayError, isNamed } from './GatewayError.js'

/**
 * A media task ended with status `failed`. `code`, `title` and `detail` are
 * the gateway's `task_info.error` (e.g. 3001 "Task Execution Error" for a
 * refused or invalid prompt, 400 "Invalid Request" for rejected input).
 */
export class TaskFailedError extends GatewayError {
  /** Always `'TaskFailedError'`; test it with {@link isTaskFailedError}. */
  override name = 'TaskFailedError' as const
  declare taskId: string
  /** The gateway's error code, e.g. 3001 (task execution error) or 400 (invalid request). */
  readonly code: number
  /** The gateway's title of the error, e.g. `Task Execution Error`. */
  readonly title: string
  /** The gateway's explanation of the failure. */
  readonly detail: string

  constructor(taskId: string, error: { code: number; title: string; detail: string }, endpoint?: TaskEndpoint) {
    super(`Task ${taskId} failed [${error.code} ${error.title}]: ${error.detail}`)
    this.taskId = taskId
    if (endpoint) this.endpoint = endpoint
    this.code = error.code
    this.title = error.title
    this.detail = error.detail
  }
}

/** Whether `value` is a {@link TaskFailedError}, from any copy of rxgate. */
export const isTaskFailedError = isNamed<TaskFailedError>('TaskFailedError')
