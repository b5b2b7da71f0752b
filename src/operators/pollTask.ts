import { asyncScheduler, defer, mergeMap, type Observable, type OperatorFunction, type SchedulerLike } from 'rxjs'
import type { PollTiming, TaskEndpoint } from '../contract/endpoint.js'
import { VIDEO_URL_TTL_MS } from '../contract/limits.js'
import { tagTask } from '../errors/GatewayError.js'
import { TaskFailedError } from '../errors/TaskFailedError.js'
import { TaskTimeoutError } from '../errors/TaskTimeoutError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { DEFAULTS, type RetryOptions } from '../policy/defaults.js'
import { pollDelay, retryWait } from '../policy/delays.js'
import { loop$ } from '../policy/loop.js'
import { isTransient } from '../policy/retryable.js'
import type { TaskCreated, TaskInfo, TaskReply } from '../validation/task.js'

/** One step in a task's life. Statuses use the interface's words whatever vocabulary the gateway used. */
export type TaskEvent =
  | {
      readonly type: 'created'
      readonly taskId: string
      readonly taskInfo: TaskCreated['task_info']
      /** The `Idempotency-Key` the creation was sent with. */
      readonly idempotencyKey: string
    }
  | { readonly type: 'pending' | 'processing'; readonly taskId: string; readonly taskInfo: TaskInfo }
  | {
      readonly type: 'completed'
      readonly taskId: string
      readonly taskInfo: TaskInfo
      /** The `videos` or `images` URLs. */
      readonly urls: readonly string[]
      readonly reply: TaskReply
      /** When video URLs stop working (1 hour after generation); absent for images. */
      readonly expiresAt?: Date
    }

/** Options of {@link pollTask}. */
export interface PollTaskOptions {
  readonly endpoint: TaskEndpoint
  /** Poll timing; see the README for the defaults of each kind. */
  readonly poll: Required<PollTiming>
  /** Overall deadline from subscription. Default 15 minutes. */
  readonly deadlineMs?: number
  /** Read at once instead of after the first delay (following a task that may be done already). */
  readonly immediate?: boolean
  /** Budget for failed reads in a row (network, 408, 429, 5xx, malformed replies). Default 5 retries. */
  readonly retry?: RetryOptions
  readonly scheduler?: SchedulerLike
  readonly random?: () => number
}

// Statuses only move forward: a reply that reports an earlier one is not news.
const RANK = { pending: 0, processing: 1, completed: 2 } as const

/**
 * Follows each task (a `task_info` with its `id`) until it ends. Polls
 * `read(id)` with exponential backoff and jitter between polls, one request
 * in flight at a time, and emits `pending` and `processing` when the status
 * moves forward (a status that goes back is not emitted), then `completed`
 * with the URLs, then completes. A `failed` task ends in
 * {@link TaskFailedError}.
 *
 * A read that fails in a way that may pass (network, 408, 429, 5xx, a reply
 * that is not JSON, has the wrong shape or names another task) is retried
 * within the `retry` budget, honouring `Retry-After`, without ending the
 * follow. A read at `deadlineMs` that finds the task unfinished ends it in
 * {@link TaskTimeoutError}. Every error that ends a follow carries `taskId`
 * and `endpoint`. Unsubscribing aborts the read in flight and clears the timer.
 *
 * @example
 * ```ts
 * of(created.task_info).pipe(pollTask((id) => readTask$(id), { endpoint: endpoints.t2vSpark, poll: TASK_POLL_DEFAULTS.video }))
 * // Output: pending, processing, completed
 * ```
 */
export function pollTask(
  read: (taskId: string) => Observable<TaskReply>,
  options: PollTaskOptions,
): OperatorFunction<Pick<TaskInfo, 'id'>, TaskEvent> {
  return mergeMap(({ id }) => followTask(id, read, options))
}

/** Follows one task by id: the Observable {@link pollTask} makes for each task info. */
export function followTask(id: string, read: (taskId: string) => Observable<TaskReply>, options: PollTaskOptions): Observable<TaskEvent> {
  const { endpoint, poll, deadlineMs = DEFAULTS.taskDeadlineMs, immediate = false, scheduler = asyncScheduler, random = Math.random } = options
  const retry = { ...DEFAULTS.retry, count: DEFAULTS.pollFailures, ...options.retry }
  const what = `reply to ${endpoint.resultPath}/{task_id}`
  return defer(() => {
    let rank = -1
    let lastStatus: string | undefined
    return loop$<TaskReply, TaskEvent>({
      firstDelay: immediate ? 0 : Math.min(pollDelay(1, poll, random), deadlineMs),
      attempt: () => read(id),
      take: (reply, emit) => {
        const info = reply.task_info
        if (info.id.toLowerCase() !== id.toLowerCase()) {
          throw new ValidationError(what, [{ path: 'task_info.id', message: `names task ${info.id}, not ${id}` }], reply)
        }
        if (info.status === 'failed') throw new TaskFailedError(id, info.error, endpoint)
        if (RANK[info.status] > rank) {
          rank = RANK[info.status]
          lastStatus = info.status
          emit(toEvent(id, reply, info, endpoint))
        }
        return info.status === 'completed'
      },
      again: (answered) => pollDelay(immediate ? answered : answered + 1, poll, random),
      retry: (error, failures) => (failures <= retry.count && isTransient(error) ? retryWait(error, failures, retry, random) : undefined),
      fail: (error) => tagTask(error, id, endpoint),
      deadlineAt: scheduler.now() + deadlineMs,
      overdue: (lastFailure) => new TaskTimeoutError(id, endpoint, deadlineMs, lastStatus, lastFailure),
      scheduler,
    })
  })
}

function toEvent(taskId: string, reply: TaskReply, info: TaskInfo & { status: 'pending' | 'processing' | 'completed' }, endpoint: TaskEndpoint): TaskEvent {
  if (info.status !== 'completed') return { type: info.status, taskId, taskInfo: info }
  const urls = (endpoint.kind === 'video' ? reply.videos : reply.images) ?? []
  const expiresAt = endpoint.kind === 'video' ? new Date(Date.parse(info.updated_at) + VIDEO_URL_TTL_MS) : undefined
  return { type: 'completed', taskId, taskInfo: info, urls, reply, ...(expiresAt ? { expiresAt } : {}) }
}
