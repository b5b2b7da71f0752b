import { asyncScheduler, catchError, throwError, type Observable, type SchedulerLike } from 'rxjs'
import { redactError } from './errors/redact.js'
import { InvalidRequestError, type RequestIssue } from './errors/InvalidRequestError.js'
import type { Context } from './context.js'
import type { PollDelayOptions, RetryOptions } from './operators/backoff.js'
import { cancelResponse$, responses$, retrieveResponse$, type RetrieveResponseOptions } from './responses$.js'
import { defaultTransport } from './transport/defaultTransport.js'
import { fetchTransport } from './transport/fetchTransport.js'
import type { TaskEndpoint } from './endpoints.js'
import type { TaskEvent } from './operators/pollTask.js'
import { createTask$, task$, textToVideo$, type TaskOptions, type TextToVideoOptions } from './tasks$.js'
import type { TextToVideoRequest } from './validation/textToVideoRequest.js'
import type { Response } from './validation/response.js'
import type { ResponseRequest } from './validation/responseRequest.js'
import type { ResponseStreamEvent } from './validation/streamEvents.js'

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** The gateway's address, e.g. `https://gateway.example.com` (paths are appended). Required. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>` on every call. Required. */
  readonly apiKey: string
  /** A `fetch` to send requests with. Default: undici in Node, the page's `fetch` in a browser. */
  readonly fetch?: typeof globalThis.fetch
  /** Longest silence allowed: the whole of a JSON reply, or each gap in a stream. Default 600,000 ms. */
  readonly timeoutMs?: number
  /** Retry policy for failed calls, or `false` for none. See the README for the defaults. */
  readonly retry?: RetryOptions | false
  /** Extra headers for every call (they cannot replace `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>
  /** Path of response creation; retrieval is at `{responsesPath}/{id}`. Default `/vendors/vendor-a/v1/responses`. */
  readonly responsesPath?: string
  /** Polling of background responses. Default: first after 1 s, ×1.5 per poll, at most 10 s apart, 10% jitter. */
  readonly responsePoll?: PollDelayOptions
  /** Reconnections of a dropped background stream in a row without a new event. Default 3. */
  readonly resumeAttempts?: number
  /** Task polling for every task of this gateway, over each kind's defaults (see the README). */
  readonly taskPoll?: PollDelayOptions
  /** Deadline of following a task, after which `TaskTimeoutError` is raised. Default 900,000 ms (15 minutes). */
  readonly taskDeadlineMs?: number
  /** Scheduler of every timer (timeouts, retries, polls); inject a virtual one in tests. */
  readonly scheduler?: SchedulerLike
}

/** A client for one gateway. Every method returns a cold Observable: nothing is sent until subscription. */
export interface Gateway {
  /**
   * Creates a model response.
   * - `stream: true`: the stream events, validated, in order; completes after
   *   `response.completed` or `response.incomplete`. With `background: true` a
   *   dropped connection is resumed where it stopped.
   * - otherwise: the Response, then completes. With `background: true`: the
   *   first snapshot, then each one whose status changed, until a final status.
   *
   * A failed response, `response.failed` or `error` event ends in `ResponseFailedError`.
   * A body that breaks the interface's rules ends in `InvalidRequestError`, and nothing is sent.
   *
   * @example
   * ```ts
   * gateway.responses$({ model: 'gpt-4.1', input: 'Say hi', stream: true })
   *   .pipe(textDeltas())
   *   .subscribe((piece) => process.stdout.write(piece))
   * // Output: Hi there!
   * ```
   */
  responses$(body: ResponseRequest & { stream: true }): Observable<ResponseStreamEvent>
  responses$(body: ResponseRequest & { stream?: false | null }): Observable<Response>
  responses$(body: ResponseRequest): Observable<ResponseStreamEvent | Response>

  /**
   * Reads a stored or background response: one snapshot, or with `stream: true`
   * its events after `startingAfter`, resumed across dropped connections.
   *
   * @example
   * ```ts
   * gateway.retrieveResponse$('resp_123', { stream: true, startingAfter: 41 }).pipe(outputText())
   * ```
   */
  retrieveResponse$(id: string, options: RetrieveResponseOptions & { stream: true }): Observable<ResponseStreamEvent>
  retrieveResponse$(id: string, options?: RetrieveResponseOptions & { stream?: false }): Observable<Response>

  /**
   * Cancels a background response and emits it as the gateway returns it.
   *
   * @example
   * ```ts
   * gateway.cancelResponse$('resp_123').subscribe((r) => console.log(r.status))
   * // Output: cancelled
   * ```
   */
  cancelResponse$(id: string): Observable<Response>

  /**
   * Creates a text-to-video task and follows it: `created`, then `pending` and
   * `processing` as the status changes, then `completed` with the video URLs.
   * The body is checked against every rule of the interface first (unknown
   * fields are refused unless `allowUnknownFields`); a violation ends in
   * `InvalidRequestError` and nothing is sent. A failed task ends in
   * `TaskFailedError`; one past its deadline in `TaskTimeoutError`.
   *
   * @example
   * ```ts
   * gateway.textToVideo$({ prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5 })
   *   .subscribe((event) => console.log(event.type))
   * // Output: created, pending, processing, completed
   * ```
   */
  textToVideo$(body: TextToVideoRequest, options?: TextToVideoOptions): Observable<TaskEvent>

  /**
   * Creates a task at any endpoint with a creation path and follows it, like
   * `textToVideo$`. The body is sent as given.
   *
   * @example
   * ```ts
   * gateway.createTask$(endpoints.i2iPreview, { prompt: 'in watercolour', image_url: url }).pipe(taskUrls())
   * ```
   */
  createTask$(endpoint: TaskEndpoint, body: object, options?: TaskOptions): Observable<TaskEvent>

  /**
   * Follows an existing task by id, e.g. one created before a restart or
   * reported by a `TaskTimeoutError`. Subscribers to the same task share one
   * poll loop.
   *
   * @example
   * ```ts
   * gateway.task$(endpoints.t2vSpark, '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11').pipe(taskUrls())
   * ```
   */
  task$(endpoint: TaskEndpoint, taskId: string, options?: TaskOptions): Observable<TaskEvent>
}

const DEFAULT_TIMEOUT_MS = 600_000

/**
 * Creates a client for the gateway at `baseUrl`. Throws {@link InvalidRequestError}
 * at once when `baseUrl` or `apiKey` is missing or malformed.
 *
 * @example
 * ```ts
 * import { createGateway, outputText } from 'rxgate'
 *
 * const gateway = createGateway({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * gateway.responses$({ model: 'gpt-4.1', input: 'Write a haiku' }).pipe(outputText()).subscribe(console.log)
 * ```
 */
export function createGateway(options: GatewayOptions): Gateway {
  const ctx = contextOf(options)
  // Every error leaves through here, scrubbed of the key whatever made it.
  const safe = <T>(source$: Observable<T>): Observable<T> =>
    source$.pipe(catchError((error: unknown) => throwError(() => redactError(error, ctx.client.secret))))
  return {
    responses$: ((body: ResponseRequest) => safe(responses$(ctx, body))) as Gateway['responses$'],
    retrieveResponse$: ((id: string, opts?: RetrieveResponseOptions) => safe(retrieveResponse$(ctx, id, opts))) as Gateway['retrieveResponse$'],
    cancelResponse$: (id) => safe(cancelResponse$(ctx, id)),
    textToVideo$: (body, opts) => safe(textToVideo$(ctx, body, opts)),
    createTask$: (endpoint, body, opts) => safe(createTask$(ctx, endpoint, body, opts)),
    task$: (endpoint, taskId, opts) => safe(task$(ctx, endpoint, taskId, opts)),
  }
}

function contextOf(options: GatewayOptions): Context {
  const issues: RequestIssue[] = []
  const { baseUrl, apiKey } = options ?? ({} as GatewayOptions)
  if (typeof baseUrl !== 'string' || !baseUrl) issues.push({ path: 'baseUrl', message: 'is required' })
  else if (!/^https?:\/\/[^/]/.test(baseUrl)) issues.push({ path: 'baseUrl', message: 'must be an http:// or https:// URL' })
  if (typeof apiKey !== 'string' || !apiKey.trim()) issues.push({ path: 'apiKey', message: 'is required (the gateway token)' })
  const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) issues.push({ path: 'timeoutMs', message: 'must be from 1 to 2147483647' })
  if (issues.length > 0) throw new InvalidRequestError(issues, 'gateway options')

  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value
  headers.authorization = `Bearer ${apiKey.trim()}`
  return {
    client: {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      transport: options.fetch ? fetchTransport(options.fetch) : defaultTransport(),
      headers,
      secret: apiKey.trim(),
      timeoutMs,
      retry: options.retry ?? {},
      scheduler: options.scheduler ?? asyncScheduler,
    },
    responsesPath: options.responsesPath ?? '/vendors/vendor-a/v1/responses',
    responsePoll: { initialDelayMs: 1_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.1, ...options.responsePoll },
    resumeAttempts: options.resumeAttempts ?? 3,
    taskPoll: options.taskPoll ?? {},
    taskDeadlineMs: options.taskDeadlineMs ?? 15 * 60_000,
    followed: new Map(),
  }
}
