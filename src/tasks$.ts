import { Observable, switchMap, type Subscriber, type Unsubscribable } from 'rxjs'
import { checkAudio$, type AudioCheckOptions } from './audio/checkAudio$.js'
import { publicNetworkIssues } from './transport/allowHosts.js'
import { guard$, isClientLike, notAClient, type Client } from './client.js'
import { asGatewayError } from './errors/GatewayError.js'
import { redactError } from './errors/redact.js'
import type { Sink } from './policy/loop.js'
import type { TaskEndpoint } from './contract/endpoint.js'
import { endpoints } from './endpoints.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { TaskCreationUnknownError } from './errors/TaskCreationUnknownError.js'
import { isValidationError } from './errors/ValidationError.js'
import { followTask, startFollow, type PollTaskOptions, type TaskEvent, type TaskReader } from './operators/pollTask.js'
import { DEFAULTS, setFields, type PollDelayOptions } from './policy/defaults.js'
import { creationKey } from './policy/idempotency.js'
import { request$, type RetryRule } from './policy/request$.js'
import { certainlyNotCreated } from './policy/retryable.js'
import { createRule } from './policy/rules.js'
import { operationOf, traced$, withTrace, type OperationTrace } from './telemetry.js'
import { json$ } from './transport/json$.js'
import { parsePayload, serializeRequest } from './validation/check.js'
import { checkTaskOptions } from './validation/options.js'
import { checkTaskEndpoint } from './validation/taskEndpoint.js'
import { checkTaskId, TaskCreatedSchema, TaskIdSchema, TaskReplySchemas, type TaskReply } from './validation/task.js'
import { TextToVideoRequestLooseSchema, TextToVideoRequestSchema, type TextToVideoRequest } from './validation/textToVideoRequest.js'
import * as v from 'valibot'

/** Per-call options of the task functions. */
export interface TaskOptions {
  /** Poll timing for this call, over the client's and the kind's defaults. */
  readonly poll?: PollDelayOptions
  /** Overall deadline of following, in ms; past it the Observable ends in `TaskTimeoutError` (the task goes on). @defaultValue the client's `taskDeadlineMs` (15 minutes unless set) */
  readonly deadlineMs?: number
}

/** Options of the creating functions. */
export interface CreateTaskOptions extends TaskOptions {
  /** The `Idempotency-Key` to create with. @defaultValue a fresh random UUID (`crypto.randomUUID()`) per subscription */
  readonly idempotencyKey?: string
}

/** Options of {@link textToVideo$}. */
export interface TextToVideoOptions extends CreateTaskOptions {
  /** Send fields the interface does not list (e.g. a newer model option) instead of refusing them. @defaultValue `false` */
  readonly allowUnknownFields?: boolean
  /**
   * Read a few KB of `audio_url` before creating the task, and refuse a file
   * that breaks the custom-audio rules (WAV or MP3, 3 to 30 s, at most 15 MB)
   * or cannot be read, with `InvalidRequestError`: no task is created. See
   * `checkAudio$`. `false` sends the URL unchecked; an object sets the
   * probe's `fetch`, `timeoutMs` or `scheduler` (default: the client's), and
   * adds to the hosts it may read at private addresses: the origin of the
   * client's `baseUrl` and the client's `allowHosts` (or all, with the
   * client's `allowPrivateNetwork`) always.
   *
   * @defaultValue `true`
   */
  readonly checkAudio?: boolean | AudioCheckOptions
}

/** Poll timing of each kind: video follows the interface's advice (10 s growing to 20 s); images start sooner. */
export const TASK_POLL_DEFAULTS = DEFAULTS.taskPoll

/**
 * Creates a text-to-video task and follows it: `created`, then `pending` and
 * `processing` as the status changes, then `completed` with the video URLs.
 * The body is checked against every rule of the interface first (unknown
 * fields are refused unless `allowUnknownFields`); a violation ends in
 * `InvalidRequestError` and nothing is sent. Then a custom `audio_url` is
 * read (a few KB, without the client's headers) and checked against the
 * custom-audio rules, unless `checkAudio: false` (see `checkAudio$`); a
 * file that breaks them, or cannot be read, ends in `InvalidRequestError`
 * and no task is created; so does one at a private address (loopback,
 * RFC 1918, cloud metadata…, or a redirect there), which is not even
 * requested, unless it is the origin of the client's `baseUrl`, in its
 * `allowHosts`, or the client has `allowPrivateNetwork`. A failed task ends in `TaskFailedError`; one
 * past its deadline in `TaskTimeoutError`; a creation whose outcome is
 * unknown in `TaskCreationUnknownError`.
 *
 * @example
 * ```ts
 * textToVideo$(client, { prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5 })
 *   .subscribe((event) => console.log(event.type))
 * // Output: created, pending, processing, completed
 * ```
 */
export function textToVideo$(client: Client, body: TextToVideoRequest, options: TextToVideoOptions = {}): Observable<TaskEvent> {
  options ??= {} // null options are no options
  const schema = options.allowUnknownFields ? TextToVideoRequestLooseSchema : TextToVideoRequestSchema
  return guard$(client, () => {
    const text = serializeRequest(schema, body, 'text-to-video request')
    checkTaskOptions(options)
    const { checkAudio = true } = options
    const probe = body.audio_url && checkAudio !== false ? audioProbe(client, checkAudio) : undefined
    // Every check passed: the call starts (and its trace, which covers the audio check too).
    const trace = taskTrace(client, endpoints.t2vSpark, body)
    const created$ = create$(client, endpoints.t2vSpark, text, options, trace)
    // The file is read before anything reaches the gateway: audio that breaks a rule creates no (paid) task.
    // Not during a server-side render, which sends nothing (the check reads with a fetch of its own, not the
    // transport that never answers there): the browser checks when it calls.
    const call$ = probe && client.serverRendering !== true ? checkAudio$(body.audio_url!, probe).pipe(switchMap(() => created$)) : created$
    return traced$(trace, call$, client.secret, seeTask)
  })
}

/** The options of the `audio_url` check; bad ones (`checkAudio: { allowHosts: 'x' }`) end in `InvalidRequestError`. */
function audioProbe(client: Client, checkAudio: true | AudioCheckOptions): AudioCheckOptions {
  const own = typeof checkAudio === 'object' && checkAudio !== null ? checkAudio : {}
  const badOptions = publicNetworkIssues('checkAudio', own)
  if (badOptions.length > 0) throw new InvalidRequestError(badOptions, 'options')
  return {
    ...own,
    timeoutMs: own.timeoutMs ?? client.timeoutMs,
    scheduler: own.scheduler ?? client.scheduler,
    // The gateway's own origin serves files too (the simulator's samples, a proxy's uploads): reachable wherever it runs.
    allowHosts: [...gatewayOrigin(client), ...(client.allowHosts ?? []), ...(own.allowHosts ?? [])],
    allowPrivateNetwork: own.allowPrivateNetwork === true || client.allowPrivateNetwork === true,
  }
}

/** The origin of the client's `baseUrl` (a path is on the page's), as an `allowHosts` entry. */
function gatewayOrigin(client: Client): string[] {
  try {
    return [new URL(client.baseUrl, (globalThis as { location?: { href?: string } }).location?.href).origin]
  } catch {
    return []
  }
}

const AnyObject = v.custom<object>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object')

/**
 * Creates a task at any endpoint with a creation path (the body is sent as
 * given, as a JSON object) and follows it, like {@link textToVideo$}. An
 * endpoint that is not one (`null`, a model name, an object without
 * `resultPath`) or a body that is not a JSON object (or holds a `NaN` or
 * `Infinity`) ends in `InvalidRequestError`, and nothing is sent.
 *
 * @example
 * ```ts
 * createTask$(client, endpoints.i2iPreview, { prompt: 'in watercolour', image_url: url }).pipe(taskUrls())
 * ```
 */
export function createTask$(client: Client, endpoint: TaskEndpoint, body: object, options?: CreateTaskOptions): Observable<TaskEvent> {
  return guard$(client, () => {
    checkTaskEndpoint(endpoint)
    if (!endpoint.createPath) {
      throw new InvalidRequestError([{ path: 'endpoint', message: `${endpoint.name} has no creation path; create its tasks elsewhere and follow them with task$` }])
    }
    const text = serializeRequest(AnyObject, body, 'task creation body')
    // `null` (plain JavaScript) means no options, as leaving them out does.
    const opts = options ?? {}
    checkTaskOptions(opts)
    const trace = taskTrace(client, endpoint, body)
    const created$ = create$(client, endpoint, text, opts, trace)
    return traced$(trace, created$, client.secret, seeTask)
  })
}

/** The trace of a task's creation and follow, when the client has telemetry. */
function taskTrace(client: Client, endpoint: TaskEndpoint, request: object): OperationTrace | undefined {
  return client.telemetry && operationOf(client, { operation: 'generate_content', model: modelOf(endpoint), path: endpoint.createPath!, request, endpoint })
}

/** Creates a task and follows it; the body and options are checked, the trace (if any) started. */
function create$(client: Client, endpoint: TaskEndpoint, body: string, options: CreateTaskOptions, trace: OperationTrace | undefined): Observable<TaskEvent> {
  const creation = creationKey(client, options.idempotencyKey)
  const key = creation.idempotencyKey
  const path = endpoint.createPath!
  const decode = (json: unknown) => parsePayload(TaskCreatedSchema, json, `reply to ${path}`).task_info
  const spec = withTrace({ method: 'POST', path, body, headers: { 'idempotency-key': key } } as const, trace)
  // One per subscription (this runs inside guard$'s build, as the key does): it judges the call's every attempt.
  const rule = createRule(client)
  let seenId: string | undefined
  const judged: RetryRule = (error, failures) => {
    seenId ??= taskIdIn(error)
    return rule(error, failures)
  }
  const unknown = (error: unknown) =>
    !rule.mayExist && certainlyNotCreated(error)
      ? error
      : new TaskCreationUnknownError({ endpoint, idempotencyKey: key, taskId: taskIdIn(error) ?? seenId, cause: error, chosen: creation.chosen, honoured: creation.honoured })
  // A traced follow reads with a reader of its own, whose requests carry the trace; the shared one serves the others.
  const read = readerOf(client, endpoint, trace)
  return request$(client, spec, decode, judged, unknown).pipe(
    switchMap((info) => {
      const follow$ = followTask(info.id, read, pollOptions(client, endpoint, options, false))
      return new Observable<TaskEvent>((subscriber) => {
        subscriber.next({ type: 'created', taskId: info.id, taskInfo: info, idempotencyKey: key })
        // A subscriber that stopped at `created` ends the follow at once, before its first read is due.
        return follow$.subscribe(subscriber)
      })
    }),
  )
}

/**
 * Follows an existing task by id (created by another process, before a
 * restart, or named by an error). The first read is immediate. Subscribers
 * to the same task share one poll loop; a late subscriber gets the latest
 * status at once; the loop stops when the last one unsubscribes. The first
 * subscriber's options apply. An endpoint or id of the wrong kind ends in
 * `InvalidRequestError`, and nothing is read.
 *
 * @example
 * ```ts
 * task$(client, endpoints.t2vSpark, '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11').pipe(taskUrls()).subscribe(console.log)
 * ```
 */
export function task$(client: Client, endpoint: TaskEndpoint, taskId: string, options?: TaskOptions): Observable<TaskEvent> {
  // `null` (plain JavaScript) means no options, as leaving them out does.
  const opts = options ?? {}
  // Not through guard$: a follow may wait for minutes by the thousand, so it
  // keeps no layer it does not need; SharedFollow sanitises its errors itself.
  return new Observable<TaskEvent>((subscriber) => {
    try {
      if (!isClientLike(client)) throw notAClient(client)
      checkTaskEndpoint(endpoint)
      checkTaskId(taskId)
      checkTaskOptions(opts)
    } catch (error) {
      return subscriber.error(error)
    }
    const key = taskId.toLowerCase()
    const follows = followsOf(client, endpoint)
    let shared = follows.get(key)
    if (shared) {
      if (shared.last) subscriber.next(shared.last)
      shared.subscribers.push(subscriber)
    } else {
      const trace = client.telemetry && operationOf(client, { operation: 'generate_content', model: modelOf(endpoint), path: endpoint.resultPath, endpoint, id: taskId })
      follows.set(key, (shared = new SharedFollow(follows, key, subscriber, client.secret, trace)))
      shared.start(taskId, readerOf(client, endpoint, trace), pollOptions(client, endpoint, opts, true))
    }
    const entry = shared
    return () => entry.drop(subscriber)
  })
}

/**
 * One task followed for several subscribers: the loop's sink, fanning each
 * event out, keeping the latest for a subscriber who comes late, and masking
 * the key in the error that ends it.
 */
class SharedFollow implements Sink<TaskEvent> {
  readonly subscribers: Subscriber<TaskEvent>[]
  last: TaskEvent | undefined
  closed = false
  private loop: Unsubscribable | undefined

  constructor(
    private readonly follows: Map<string, SharedFollow>,
    private readonly key: string,
    first: Subscriber<TaskEvent>,
    private readonly secret: string | undefined,
    /** The follow's trace, when the client has telemetry: one operation for every subscriber. */
    private readonly trace?: OperationTrace,
  ) {
    this.subscribers = [first]
  }

  start(id: string, read: TaskReader, options: PollTaskOptions): void {
    const loop = startFollow(id, read, options, this)
    if (this.closed) loop.unsubscribe()
    else this.loop = loop
  }

  next(event: TaskEvent): void {
    this.last = event
    this.trace?.taskStatus(event)
    for (const s of this.subscribers.length === 1 ? this.subscribers : this.subscribers.slice()) s.next(event)
  }

  error(error: unknown): void {
    this.end()
    const clean = redactError(asGatewayError(error), this.secret)
    this.trace?.end('error', clean)
    for (const s of this.subscribers.slice()) s.error(clean)
  }

  complete(): void {
    this.end()
    this.trace?.end('ok')
    for (const s of this.subscribers.slice()) s.complete()
  }

  /** A subscriber left; the last one stops the loop. */
  drop(subscriber: Subscriber<TaskEvent>): void {
    const i = this.subscribers.indexOf(subscriber)
    if (i !== -1) this.subscribers.splice(i, 1)
    if (this.subscribers.length > 0 || this.closed) return
    this.end()
    this.loop?.unsubscribe()
    this.trace?.end('cancelled')
  }

  private end(): void {
    this.closed = true
    if (this.follows.get(this.key) === this) this.follows.delete(this.key)
  }
}

// Follows in progress, per client and endpoint, by task id. Kept here (not
// on the client) so that an app that never follows a task carries none of this.
const allFollows = new WeakMap<Client, Map<TaskEndpoint, Map<string, SharedFollow>>>()

function followsOf(client: Client, endpoint: TaskEndpoint): Map<string, SharedFollow> {
  let byEndpoint = allFollows.get(client)
  if (!byEndpoint) allFollows.set(client, (byEndpoint = new Map()))
  let map = byEndpoint.get(endpoint)
  if (!map) byEndpoint.set(endpoint, (map = new Map()))
  return map
}

/** How a follow reads its task; a traced follow's reads are attempts of its operation. */
function readerOf(client: Client, endpoint: TaskEndpoint, trace: OperationTrace | undefined): TaskReader {
  return (id, retry) => readTask$(client, endpoint, id, retry, trace)
}

function readTask$(client: Client, endpoint: TaskEndpoint, id: string, retry: number, trace?: OperationTrace): Observable<TaskReply> {
  const what = `reply to ${endpoint.resultPath}/{task_id}`
  const spec = { method: 'GET', path: `${endpoint.resultPath}/${id}`, ...(retry ? { retry } : {}) } as const
  return json$(client, withTrace(spec, trace), (json) => parsePayload(TaskReplySchemas[endpoint.kind], json, what))
}

/** The model of an endpoint named `vendor/model`. */
function modelOf(endpoint: TaskEndpoint): string {
  return endpoint.name.slice(endpoint.name.indexOf('/') + 1)
}

function seeTask(trace: OperationTrace, event: TaskEvent): void {
  trace.taskStatus(event)
}

// The follow settings of each client and endpoint, shared by every follow that brings no options of its own.
const settings = new WeakMap<Client, Map<TaskEndpoint, PollTaskOptions[]>>()

function pollOptions(client: Client, endpoint: TaskEndpoint, options: TaskOptions, immediate: boolean): PollTaskOptions {
  const plain = options.poll === undefined && options.deadlineMs === undefined
  let byEndpoint = settings.get(client)
  const cached = plain ? byEndpoint?.get(endpoint)?.[immediate ? 1 : 0] : undefined
  if (cached) return cached
  const made: PollTaskOptions = {
    endpoint,
    poll: { ...DEFAULTS.taskPoll[endpoint.kind], ...setFields(endpoint.poll), ...setFields(client.taskPoll), ...setFields(options.poll) },
    deadlineMs: options.deadlineMs ?? client.taskDeadlineMs,
    immediate,
    scheduler: client.scheduler,
    retry: client.retry ? { ...client.retry, count: DEFAULTS.pollFailures } : { count: 0 },
  }
  if (plain) {
    if (!byEndpoint) settings.set(client, (byEndpoint = new Map()))
    const pair = byEndpoint.get(endpoint) ?? []
    pair[immediate ? 1 : 0] = made
    byEndpoint.set(endpoint, pair)
  }
  return made
}

/** A task id in a reply that could not be read as a whole: a 202 of the wrong shape, or cut short mid-JSON. */
function taskIdIn(error: unknown): string | undefined {
  if (!isValidationError(error)) return undefined
  const { payload } = error
  const id = typeof payload === 'string' ? /"id"\s*:\s*"([^"]+)"/.exec(payload)?.[1] : (payload as { task_info?: { id?: unknown } } | null)?.task_info?.id
  return v.is(TaskIdSchema, id) ? id : undefined
}
