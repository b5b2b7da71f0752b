import { GatewayError } from './GatewayError.js'

/**
 * A media task ended with status `failed`. `code`, `title` and `detail` are
 * the gateway's `task_info.error` (e.g. 3001 "Task Execution Error" for a
 * refused or invalid prompt, 400 "Invalid Request" for rejected input).
 */
export class TaskFailedError extends GatewayError {
  override name = 'TaskFailedError' as const
  readonly taskId: string
  readonly code: number
  readonly title: string
  readonly detail: string

  constructor(taskId: string, error: { code: number; title: string; detail: string }) {
    super(`Task ${taskId} failed [${error.code} ${error.title}]: ${error.detail}`)
    this.taskId = taskId
    this.code = error.code
    this.title = error.title
    this.detail = error.detail
  }
}
