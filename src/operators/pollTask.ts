import { asyncScheduler, mergeMap, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs'
import type { TaskEndpoint } from '../endpoints.js'
import { TaskFailedError } from '../errors/TaskFailedError.js'
import { TaskTimeoutError } from '../errors/TaskTimeoutError.js'
import { isRetryable } from '../transport/request$.js'
import type { TaskInfo, TaskReply } from '../validation/task.js'
import { pollDelay, retryWait, type PollDelayOptions, type RetryOptions } from './backoff.js'

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
  /** Budget for transient read failures (network, 408, 429, 5xx) in a row. Default 5 retries. */
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
 * {@link TaskTimeoutError}, which carries the task id. Unsubscribing aborts
 * the read in flight and clears the timer.
 *
 * Each task is one small state machine rather than a chain of operators:
 * thousands of tasks may be followed at once, and a waiting task holds just
 * its state and one timer (the deadline is not a timer: each wait is cut to
 * the time left).
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
  return mergeMap(({ id }) => followTask(id, read, options))
}

/** Follows one task by id: the Observable {@link pollTask} makes for each task info. */
export function followTask(id: string, read: (taskId: string) => Observable<TaskReply>, options: PollTaskOptions): Observable<TaskEvent> {
  const { endpoint, deadlineMs = 15 * 60_000, immediate = false, scheduler = asyncScheduler, random = Math.random } = options
  const retry = { count: 5, baseDelayMs: 1_000, maxDelayMs: options.poll.maxDelayMs, ...options.retry }
  const nominal = (n: number) => (immediate && n === 1 ? 0 : pollDelay(immediate ? n - 1 : n, options.poll, random))

  return new Observable<TaskEvent>((subscriber) => {
    const deadlineAt = scheduler.now() + deadlineMs
    let polls = 0 // answered polls: a retried read is not the next poll
    let failures = 0
    let status: string | undefined
    // The timer or the read in flight: never both.
    let pending: Subscription | undefined

    const wait = (ms: number) => {
      pending = scheduler.schedule(poll, Math.max(0, ms))
    }
    const poll = () => {
      let replied = false
      const inFlight = read(id).subscribe({
        next: (reply) => {
          replied = true
          onReply(reply)
        },
        error: onError,
        complete: () => {
          if (!replied) subscriber.error(new Error(`reading task ${id} gave no reply`))
        },
      })
      // A synchronous read has already scheduled the next wait.
      if (!inFlight.closed) pending = inFlight
    }
    const onReply = (reply: TaskReply) => {
      polls++
      failures = 0
      const next = reply.task_info.status
      if (next === 'failed') return subscriber.error(new TaskFailedError(id, reply.task_info.error!))
      if (next !== status) {
        status = next
        subscriber.next(toEvent(id, reply, endpoint))
        if (subscriber.closed) return
      }
      if (next === 'completed') return subscriber.complete()
      const left = deadlineAt - scheduler.now()
      if (left <= 0) return subscriber.error(new TaskTimeoutError(id, endpoint, deadlineMs, next))
      wait(Math.min(nominal(polls + 1), left))
    }
    const onError = (error: unknown) => {
      const ms = isRetryable(error, 'GET') && failures < retry.count ? retryWait(error, ++failures, retry, random) : undefined
      if (ms === undefined) subscriber.error(error)
      else wait(ms)
    }

    wait(Math.min(nominal(1), deadlineMs))
    return () => pending?.unsubscribe()
  })
}

function toEvent(taskId: string, reply: TaskReply, endpoint: TaskEndpoint): TaskEvent {
  const info = reply.task_info
  if (info.status !== 'completed') return { type: info.status as 'pending' | 'processing', taskId, taskInfo: info }
  const urls = (endpoint.kind === 'video' ? reply.videos : reply.images) ?? []
  const expiresAt = endpoint.kind === 'video' ? new Date(Date.parse(info.updated_at) + VIDEO_URL_TTL_MS) : undefined
  return { type: 'completed', taskId, taskInfo: info, urls, reply, ...(expiresAt ? { expiresAt } : {}) }
}
