import { asyncScheduler, mergeMap, type Observable, type Observer, type OperatorFunction, type SchedulerLike, type Unsubscribable } from 'rxjs'
import type { PollTiming, TaskEndpoint } from '../contract/endpoint.js'
import { VIDEO_URL_TTL_MS } from '../contract/limits.js'
import { tagTask } from '../errors/GatewayError.js'
import { TaskFailedError } from '../errors/TaskFailedError.js'
import { TaskTimeoutError } from '../errors/TaskTimeoutError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { DEFAULTS, setFields, type RetryOptions } from '../policy/defaults.js'
import { pollDelay, retryWait } from '../policy/delays.js'
import { loop$, runLoop, type LoopPlan, type Sink } from '../policy/loop.js'
import { isTransient } from '../policy/retryable.js'
import type { TaskCreated, TaskInfo, TaskReply } from '../validation/task.js'

/** One step in a task's life. Statuses use the interface's words whatever vocabulary the gateway used. */
export type TaskEvent =
  | {
      /** The task was created (only from creating calls, not from following one). */
      readonly type: 'created'
      /** The task's id: follow it again with `task$`. */
      readonly taskId: string
      /** `task_info` of the creation reply: its id and timestamps. */
      readonly taskInfo: TaskCreated['task_info']
      /** The `Idempotency-Key` the creation was sent with. */
      readonly idempotencyKey: string
    }
  | {
      /** The status moved forward (a status that goes back is not emitted). */
      readonly type: 'pending' | 'processing'
      /** The task's id. */
      readonly taskId: string
      /** `task_info` as read. */
      readonly taskInfo: TaskInfo
    }
  | {
      /** The task is done; the last event. */
      readonly type: 'completed'
      /** The task's id. */
      readonly taskId: string
      /** `task_info` as read. */
      readonly taskInfo: TaskInfo
      /** The `videos` or `images` URLs. */
      readonly urls: readonly string[]
      /** The whole reply, for fields this version does not model. */
      readonly reply: TaskReply
      /** When video URLs stop working (1 hour after generation); absent for images. */
      readonly expiresAt?: Date
    }

/** Reads a task once; `retry` is the number of failed reads in a row before this one (0 for a fresh poll). */
export type TaskReader = (taskId: string, retry: number) => Observable<TaskReply>

/** Options of {@link pollTask}. */
export interface PollTaskOptions {
  /** Where the task lives: its name goes into errors, with the endpoint itself, so the task can be followed again. */
  readonly endpoint: TaskEndpoint
  /** Poll timing, every field given: e.g. `TASK_POLL_DEFAULTS.video` or `TASK_POLL_DEFAULTS.image`, the defaults of each kind. */
  readonly poll: Required<PollTiming>
  /** Overall deadline from subscription, in ms. @defaultValue `15 * 60_000` (15 minutes; {@link DEFAULTS | DEFAULTS.taskDeadlineMs}) */
  readonly deadlineMs?: number
  /** Read at once instead of after the first delay (following a task that may be done already). @defaultValue `false` */
  readonly immediate?: boolean
  /**
   * Budget for failed reads in a row (network, 408, 429, 5xx, malformed
   * replies); fields left out keep their defaults.
   *
   * @defaultValue `5` retries ({@link DEFAULTS | DEFAULTS.pollFailures}), waiting as `DEFAULTS.retry` says
   */
  readonly retry?: RetryOptions
  /** Scheduler of the polls and the deadline; a virtual one in tests. @defaultValue RxJS's `asyncScheduler` */
  readonly scheduler?: SchedulerLike
  /** Source of jitter in [0, 1); injectable for tests. @defaultValue `Math.random` */
  readonly random?: () => number
}

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
  read: (taskId: string, retry: number) => Observable<TaskReply>,
  options: PollTaskOptions,
): OperatorFunction<Pick<TaskInfo, 'id'>, TaskEvent> {
  return mergeMap(({ id }) => followTask(id, read, options))
}

/** Follows one task by id: the Observable {@link pollTask} makes for each task info. */
export function followTask(id: string, read: TaskReader, options: PollTaskOptions): Observable<TaskEvent> {
  return loop$<TaskReply, TaskEvent>(() => new Follow(id, read, options))
}

/** Follows one task into a sink, with no Observable around it (see `runLoop`). Returns what stops it. */
export function startFollow(id: string, read: TaskReader, options: PollTaskOptions, sink: Sink<TaskEvent>): Unsubscribable {
  return runLoop(new Follow(id, read, options), sink)
}

/**
 * The plan of one follow, as an object rather than closures: thousands of
 * follows may wait at once, and each holds just this and one timer.
 */
class Follow implements LoopPlan<TaskReply, TaskEvent> {
  readonly scheduler: SchedulerLike
  readonly firstDelay: number
  readonly deadlineAt: number
  private readonly deadlineMs: number
  private readonly random: () => number
  private readonly retries: RetryOptions & { count: number }
  private rank = -1
  private lastStatus: string | undefined

  constructor(
    private readonly id: string,
    private readonly read: TaskReader,
    private readonly options: PollTaskOptions,
  ) {
    const { deadlineMs = DEFAULTS.taskDeadlineMs, scheduler = asyncScheduler, random = Math.random } = options
    this.scheduler = scheduler
    this.random = random
    this.deadlineMs = deadlineMs
    this.deadlineAt = scheduler.now() + deadlineMs
    this.retries = { ...DEFAULTS.retry, count: DEFAULTS.pollFailures, ...setFields(options.retry) }
    this.firstDelay = options.immediate ? 0 : Math.min(pollDelay(1, options.poll, random), deadlineMs)
  }

  attempt(_n: number, failures: number): Observable<TaskReply> {
    return this.read(this.id, failures)
  }

  take(reply: TaskReply, out: Pick<Observer<TaskEvent>, 'next'>): 'done' | 'more' {
    const { id, options } = this
    const info = reply.task_info
    if (info.id.toLowerCase() !== id.toLowerCase()) {
      throw new ValidationError(`reply to ${options.endpoint.resultPath}/{task_id}`, [{ path: 'task_info.id', message: `names task ${info.id}, not ${id}` }], reply)
    }
    if (info.status === 'failed') throw new TaskFailedError(id, info.error, options.endpoint)
    // Statuses only move forward: a reply that reports an earlier one is not news.
    if (RANK[info.status] > this.rank) {
      this.rank = RANK[info.status]
      this.lastStatus = info.status
      out.next(toEvent(id, reply, info, options.endpoint))
    }
    return info.status === 'completed' ? 'done' : 'more'
  }

  again(answered: number): number {
    return pollDelay(this.options.immediate ? answered : answered + 1, this.options.poll, this.random)
  }

  retry(error: unknown, failures: number): number | undefined {
    return failures <= this.retries.count && isTransient(error) ? retryWait(error, failures, this.retries, this.random) : undefined
  }

  fail(error: unknown): unknown {
    return tagTask(error, this.id, this.options.endpoint)
  }

  overdue(lastFailure: unknown): unknown {
    return new TaskTimeoutError(this.id, this.options.endpoint, this.deadlineMs, this.lastStatus, lastFailure)
  }
}

function toEvent(taskId: string, reply: TaskReply, info: TaskInfo & { status: 'pending' | 'processing' | 'completed' }, endpoint: TaskEndpoint): TaskEvent {
  if (info.status !== 'completed') return { type: info.status, taskId, taskInfo: info }
  const urls = (endpoint.kind === 'video' ? reply.videos : reply.images) ?? []
  const expiresAt = endpoint.kind === 'video' ? new Date(Date.parse(info.updated_at) + VIDEO_URL_TTL_MS) : undefined
  return { type: 'completed', taskId, taskInfo: info, urls, reply, ...(expiresAt ? { expiresAt } : {}) }
}
