import {
  asyncScheduler,
  defer,
  distinctUntilChanged,
  map,
  mergeMap,
  tap,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs'
import type { TaskEndpoint } from '../endpoints.js'
import { TaskFailedError } from '../errors/TaskFailedError.js'
import { TaskTimeoutError } from '../errors/TaskTimeoutError.js'
import { isRetryable } from '../transport/request$.js'
import type { TaskInfo, TaskReply } from '../validation/task.js'
import { backoff, pollDelay, type PollDelayOptions, type RetryOptions } from './backoff.js'
import { poll } from './poll.js'

/** How long a video URL stays valid after generation. */
export const VIDEO_URL_TTL_MS = 60 * 60 * 1000

/** One step in a task's life. Statuses use the interface's words whatever vocabulary the gateway used. */
export type TaskEvent =
  | { readonly type: 'created'; readonly taskId: string; readonly taskInfo: { readonly id: string; readonly created_at: string; readonly updated_at: string } }
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
  readonly poll: Required<PollDelayOptions>
  /** Overall deadline from subscription. Default 15 minutes. */
  readonly deadlineMs?: number
  /** Read at once instead of after the first delay (following a task that may be done already). */
  readonly immediate?: boolean
  /** Budget for transient read failures (network, 408, 429, 5xx) of one poll. Default 5 retries. */
  readonly retry?: RetryOptions
  readonly scheduler?: SchedulerLike
  readonly random?: () => number
}

/**
 * Follows each task (a `task_info` with its `id`) until it ends. Polls
 * `read(id)` with exponential backoff and jitter between polls, one request
 * in flight at a time, and emits `pending` and `processing` when the status
 * changes, then `completed` with the URLs, then completes. A `failed` task
 * ends in {@link TaskFailedError}. Transient read failures are retried within
 * the `retry` budget (honouring `Retry-After`) without ending the task. A
 * read at `deadlineMs` that finds the task unfinished ends it in
 * {@link TaskTimeoutError}, which carries the task id. A waiting task holds
 * one timer, the deadline included.
 * Unsubscribing aborts the read in flight and clears every timer.
 *
 * @example
 * ```ts
 * of(created.task_info).pipe(pollTask((id) => readTask$(id), { endpoint: endpoints.t2vSpark, poll }))
 * // Output: pending, processing, completed
 * ```
 */
export function pollTask(
  read: (taskId: string) => Observable<TaskReply>,
  options: PollTaskOptions,
): OperatorFunction<Pick<TaskInfo, 'id'>, TaskEvent> {
  const { endpoint, deadlineMs = 15 * 60_000, immediate = false, scheduler = asyncScheduler, random = Math.random } = options
  const retry = { count: 5, baseDelayMs: 1_000, maxDelayMs: options.poll.maxDelayMs, ...options.retry }
  const isDone = (reply: TaskReply) => reply.task_info.status === 'completed' || reply.task_info.status === 'failed'
  return mergeMap(({ id }) =>
    defer(() => {
      // The deadline is not a timer of its own: each wait is cut to the time
      // left, and a read at the deadline that is not final ends the task.
      // So a waiting task holds exactly one timer.
      const deadlineAt = scheduler.now() + deadlineMs
      const nominal = (n: number) => (immediate && n === 1 ? 0 : pollDelay(immediate ? n - 1 : n, options.poll, random))
      return poll(() => read(id).pipe(backoff({ ...retry, scheduler, random, shouldRetry: (e) => isRetryable(e, 'GET') })), {
        delay: (n) => Math.max(0, Math.min(nominal(n), deadlineAt - scheduler.now())),
        isDone,
        scheduler,
      }).pipe(
        tap((reply) => {
          if (!isDone(reply) && scheduler.now() >= deadlineAt) {
            throw new TaskTimeoutError(id, endpoint, deadlineMs, reply.task_info.status)
          }
        }),
        distinctUntilChanged((a, b) => a.task_info.status === b.task_info.status),
        map((reply) => toEvent(id, reply, endpoint)),
      )
    }),
  )
}

function toEvent(taskId: string, reply: TaskReply, endpoint: TaskEndpoint): TaskEvent {
  const info = reply.task_info
  switch (info.status) {
    case 'failed':
      // The schema guarantees `error` on a failed task.
      throw new TaskFailedError(taskId, info.error!)
    case 'completed': {
      const urls = (endpoint.kind === 'video' ? reply.videos : reply.images) ?? []
      const expiresAt = endpoint.kind === 'video' ? new Date(Date.parse(info.updated_at) + VIDEO_URL_TTL_MS) : undefined
      return { type: 'completed', taskId, taskInfo: info, urls, reply, ...(expiresAt ? { expiresAt } : {}) }
    }
    default:
      return { type: info.status, taskId, taskInfo: info }
  }
}
