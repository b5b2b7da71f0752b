import { concat, defer, finalize, map, of, ReplaySubject, share, switchMap, type Observable } from 'rxjs'
import type { Context } from './context.js'
import type { TaskEndpoint, TaskKind } from './endpoints.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import type { PollDelayOptions } from './operators/backoff.js'
import { followTask, type TaskEvent } from './operators/pollTask.js'
import { requestJson$ } from './transport/request$.js'
import { checkRequest, parsePayload } from './validation/check.js'
import { checkTaskId } from './validation/paths.js'
import { TaskCreatedSchema, TaskReplySchemas, type TaskReply } from './validation/task.js'
import { TextToVideoRequestLooseSchema, TextToVideoRequestSchema, type TextToVideoRequest } from './validation/textToVideoRequest.js'
import { endpoints } from './endpoints.js'

/** Per-call options of the task functions. */
export interface TaskOptions {
  /** Poll timing for this call, over the gateway's and the kind's defaults. */
  readonly poll?: PollDelayOptions
  /** Overall deadline; past it the Observable ends in `TaskTimeoutError` (the task goes on). Default 15 minutes. */
  readonly deadlineMs?: number
}

/** Options of `textToVideo$`. */
export interface TextToVideoOptions extends TaskOptions {
  /** Send fields the interface does not list (e.g. a newer model option) instead of refusing them. */
  readonly allowUnknownFields?: boolean
}

/** Poll timing of each kind: video follows the interface's advice (10 s growing to 20 s); images start sooner. */
export const TASK_POLL_DEFAULTS: Record<TaskKind, Required<PollDelayOptions>> = {
  video: { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0.05 },
  image: { initialDelayMs: 2_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.05 },
}

/** Validates a text-to-video body, creates the task, and follows it. */
export function textToVideo$(ctx: Context, body: TextToVideoRequest, options: TextToVideoOptions = {}): Observable<TaskEvent> {
  return defer(() => {
    checkRequest(options.allowUnknownFields ? TextToVideoRequestLooseSchema : TextToVideoRequestSchema, body, 'text-to-video request')
    return createTask$(ctx, endpoints.t2vSpark, body, options)
  })
}

/**
 * Creates a task at any endpoint (the body is sent as given) and follows it:
 * `created`, then status changes, then `completed`. The creation `POST` is
 * never sent twice unless the gateway refused it (429, 503).
 */
export function createTask$(ctx: Context, endpoint: TaskEndpoint, body: unknown, options: TaskOptions = {}): Observable<TaskEvent> {
  return defer(() => {
    const path = endpoint.createPath
    if (!path) throw new InvalidRequestError([{ path: 'endpoint', message: `${endpoint.name} has no creation path; create its tasks elsewhere and follow them with task$` }])
    if (typeof body !== 'object' || body === null) throw new InvalidRequestError([{ path: 'body', message: 'must be an object' }])
    return requestJson$(ctx.client, { method: 'POST', path, body }).pipe(
      map((json) => parsePayload(TaskCreatedSchema, json, `reply to ${path}`).task_info),
      switchMap((info) =>
        concat(
          of<TaskEvent>({ type: 'created', taskId: info.id, taskInfo: info }),
          followTask(info.id, (id) => readTask$(ctx, endpoint, id), pollOptions(ctx, endpoint, options, false)),
        ),
      ),
    )
  })
}

/**
 * Follows an existing task by id (created by another process, or before a
 * restart). The first read is immediate. Subscribers to the same task share
 * one poll loop; a late subscriber gets the latest status at once; the loop
 * stops when the last one unsubscribes. The first subscriber's options apply.
 */
export function task$(ctx: Context, endpoint: TaskEndpoint, taskId: string, options: TaskOptions = {}): Observable<TaskEvent> {
  return defer(() => {
    checkTaskId(taskId)
    const key = `${endpoint.resultPath}/${taskId.toLowerCase()}`
    let shared = ctx.followed.get(key)
    if (!shared) {
      const loop: Observable<TaskEvent> = followTask(taskId, (id) => readTask$(ctx, endpoint, id), pollOptions(ctx, endpoint, options, true)).pipe(
        finalize(() => {
          if (ctx.followed.get(key) === loop) ctx.followed.delete(key)
        }),
        share({ connector: () => new ReplaySubject<TaskEvent>(1) }),
      )
      ctx.followed.set(key, loop)
      shared = loop
    }
    return shared
  })
}

function readTask$(ctx: Context, endpoint: TaskEndpoint, id: string): Observable<TaskReply> {
  const path = `${endpoint.resultPath}/${id}`
  return requestJson$(ctx.client, { method: 'GET', path }, { retry: false }).pipe(
    map((json) => parsePayload(TaskReplySchemas[endpoint.kind], json, `reply to ${endpoint.resultPath}/{task_id}`)),
  )
}

function pollOptions(ctx: Context, endpoint: TaskEndpoint, options: TaskOptions, immediate: boolean) {
  return {
    endpoint,
    poll: { ...TASK_POLL_DEFAULTS[endpoint.kind], ...endpoint.poll, ...ctx.taskPoll, ...options.poll },
    deadlineMs: options.deadlineMs ?? ctx.taskDeadlineMs,
    immediate,
    scheduler: ctx.client.scheduler,
    ...(ctx.client.retry ? { retry: ctx.client.retry } : {}),
  }
}
