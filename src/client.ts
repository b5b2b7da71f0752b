import { asyncScheduler, Observable, Subscription, type Observer, type SchedulerLike, type Subscriber } from 'rxjs'
import { asGatewayError } from './errors/GatewayError.js'
import { InvalidRequestError, type RequestIssue } from './errors/InvalidRequestError.js'
import { redactError } from './errors/redact.js'
import { DEFAULTS, type PollDelayOptions, type RetryOptions } from './policy/defaults.js'
import type { RetryPolicy } from './policy/rules.js'
import { Budget } from './policy/budget.js'
import { MAX_TIMER_MS } from './policy/delays.js'
import { observedGate, type ClientHooks } from './hooks.js'
import type { Telemetry } from './telemetry.js'
import { defaultTransport } from './transport/defaultTransport.js'
import { fetchTransport } from './transport/fetchTransport.js'
import type { Connection, Exchange, Transport } from './transport/types.js'
import { checkFields, checkHeaders, checkPublicNetwork, count, POLL_CHECKS, RETRY_CHECKS } from './validation/options.js'

/** Options of {@link createClient} (and `createGateway`). */
export interface ClientOptions {
  /**
   * The gateway's address, e.g. `https://gateway.example.com` (paths are
   * appended). In a browser, also a path of the page's own origin such as
   * `/api/rxgate`: the app's server (see `rxgate/server`) forwards the calls
   * with the key it holds.
   */
  readonly baseUrl: string
  /**
   * Sent as `Authorization: Bearer <apiKey>` on every call. Required for a
   * gateway on another origin; not needed behind the app's own server.
   */
  readonly apiKey?: string
  /**
   * Allow an `apiKey` in browser code. Anyone who opens the page can read it,
   * so the default is to refuse; put the key on a server instead.
   *
   * @defaultValue `false`
   */
  readonly dangerouslyAllowBrowser?: boolean
  /** A `fetch` to send requests with. @defaultValue undici's pooled dispatcher in Node, the page's `fetch` in a browser */
  readonly fetch?: typeof globalThis.fetch
  /** A transport of your own (any HTTP stack, a test double); takes precedence over `fetch`. */
  readonly transport?: Transport
  /**
   * An exchange of your own: replies as Observable notifications instead of
   * Promises, so a whole call can run in virtual time (RxJS `TestScheduler`).
   * `createTestGateway` from `rxgate/testing` makes one. Takes precedence over
   * `transport` and `fetch`.
   */
  readonly exchange?: Exchange
  /** Node: most connections open at once for JSON requests (further ones wait for one); streams have their own, unlimited pool. @defaultValue `128` */
  readonly maxConnections?: number
  /** Longest silence, in ms: no whole JSON reply, or no complete stream event (pings do not count). @defaultValue `600_000` ({@link DEFAULTS | DEFAULTS.timeoutMs}) */
  readonly timeoutMs?: number
  /** Largest JSON reply body, in bytes; past it the request is aborted. @defaultValue `32 * 1024 * 1024` ({@link DEFAULTS | DEFAULTS.maxBodyBytes}) */
  readonly maxBodyBytes?: number
  /** Largest single stream event, in bytes; past it the request is aborted. @defaultValue `16 * 1024 * 1024` ({@link DEFAULTS | DEFAULTS.maxEventBytes}) */
  readonly maxEventBytes?: number
  /**
   * Retry policy for failed calls, or `false` for none. Fields left out keep
   * their defaults (see {@link RetryOptions}).
   *
   * @defaultValue `{ count: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 }` ({@link DEFAULTS | DEFAULTS.retry})
   */
  readonly retry?: RetryOptions | false
  /**
   * The gateway honours `Idempotency-Key`: a creation whose outcome is unknown
   * (the connection broke after sending, a 5xx, an unreadable reply) is sent
   * again with the same key instead of ending in `TaskCreationUnknownError`,
   * up to 5 failures in a row of any kind that may pass (or `retry.count`, if
   * higher).
   *
   * @defaultValue `false`
   */
  readonly idempotentCreate?: boolean
  /** Extra headers for every call (they cannot replace `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>
  /** Path of response creation; retrieval is at `{responsesPath}/{id}`. @defaultValue `'/vendors/vendor-a/v1/responses'` ({@link DEFAULTS | DEFAULTS.responsesPath}) */
  readonly responsesPath?: string
  /**
   * Polling of background responses: first after 1 s, ×1.5 per poll, at most
   * 10 s apart, up to 10% jitter, unless set here (field by field).
   *
   * @defaultValue `{ initialDelayMs: 1_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.1 }` ({@link DEFAULTS | DEFAULTS.responsePoll})
   */
  readonly responsePoll?: PollDelayOptions
  /** Reconnections of a dropped background stream in a row without a new event. @defaultValue `3` ({@link DEFAULTS | DEFAULTS.resumeAttempts}) */
  readonly resumeAttempts?: number
  /**
   * Task polling for every task of this client, field by field over the
   * defaults of each task's kind: videos from 10 s growing to 20 s, images
   * from 2 s to 10 s.
   *
   * @defaultValue `{ video: { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0.05 }, image: { initialDelayMs: 2_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.05 } }` ({@link DEFAULTS | DEFAULTS.taskPoll}), by kind
   */
  readonly taskPoll?: PollDelayOptions
  /** Deadline of following a task, in ms, after which `TaskTimeoutError` is raised. @defaultValue `15 * 60_000` (15 minutes; {@link DEFAULTS | DEFAULTS.taskDeadlineMs}) */
  readonly taskDeadlineMs?: number
  /**
   * Most requests in flight at once for the whole client (a stream counts
   * until it ends); the others wait their turn, first come, first served, so
   * thousands of task polls share it fairly.
   *
   * @defaultValue `Infinity` (no limit)
   */
  readonly maxConcurrency?: number
  /**
   * After a 429 rate limit, every request of the client waits out its
   * `Retry-After` (or a growing backoff, at most `retry.maxRetryAfterMs`) and
   * fewer go at once, growing back one success at a time.
   *
   * @defaultValue `true`
   */
  readonly adaptToRateLimits?: boolean
  /**
   * Most requests the client sends per second, evenly spaced (`1000 / n` ms
   * apart; retries and task polls count), so a gateway that allows `n` per
   * second never answers 429. Fractions allowed (`0.5`: one every 2 s).
   * Default: no limit.
   */
  readonly maxRequestsPerSecond?: number
  /**
   * Most tokens (input and output) the client's responses may use per
   * minute. Each response creation is estimated before it is sent (the
   * characters of `instructions` and of the text in `input`, divided by 4 and
   * rounded up, plus `max_output_tokens`, or a guess of 1,000 without it) and
   * waits while the last minute's tokens leave no room for it; the usage the
   * gateway reports replaces the estimate when the response ends. A request
   * that needs more than the whole minute ends in `InvalidRequestError`, and
   * nothing is sent. Task creations and polls cost no tokens. Default: no limit.
   */
  readonly maxTokensPerMinute?: number
  /** Observers of every request, response and token usage (logs, metrics, traces); they never see the key. */
  readonly hooks?: ClientHooks
  /**
   * Traces every call and each of its requests, e.g. `openTelemetry()` from
   * `rxgate/otel` (OpenTelemetry spans, metrics and `traceparent` headers).
   * Default: none, at no cost.
   */
  readonly telemetry?: Telemetry
  /** Scheduler of every timer (timeouts, retries, polls); inject a virtual one in tests. @defaultValue RxJS's `asyncScheduler` */
  readonly scheduler?: SchedulerLike
  /**
   * Hosts that the `audio_url` check of `textToVideo$` may read at private
   * addresses: a hostname (`files.internal`), a `host:port` or an origin
   * (`http://127.0.0.1:8080`). Private addresses (loopback, RFC 1918,
   * link-local such as cloud metadata, …) are refused otherwise; the origin
   * of `baseUrl` is always allowed for that check. Downloads (`download$`,
   * `saveResults`) do not read this: they take `allowHosts` of their own.
   *
   * @defaultValue `[]`
   */
  readonly allowHosts?: readonly string[]
  /**
   * Every address allowed to the `audio_url` check of `textToVideo$`,
   * private ones included (for development); only `true` does it, anything
   * else but a boolean is refused. Downloads take their own.
   *
   * @defaultValue `false`
   */
  readonly allowPrivateNetwork?: boolean
}

/**
 * A client for one gateway: plain data (its settings and its transport),
 * passed to the standalone functions (`responses$(client, …)`,
 * `textToVideo$(client, …)`, …). The key is held but not enumerable, so
 * logging a client does not print it.
 */
export interface Client extends Connection, RetryPolicy {
  /**
   * The client's budget (concurrency, rates, 429 pauses), when one was made; `usage.ts` tells it what each response used.
   *
   * @internal
   */
  readonly budget?: Budget | undefined
  /** The observers given as `ClientOptions.hooks`. */
  readonly hooks?: ClientHooks | undefined
  /** The tracer given as `ClientOptions.telemetry`. */
  readonly telemetry?: Telemetry | undefined
  /** Path of response creation (see `ClientOptions.responsesPath`). */
  readonly responsesPath: string
  /** Polling of background responses, every field filled in. */
  readonly responsePoll: Required<PollDelayOptions>
  /** Reconnections of a dropped background stream in a row without a new event. */
  readonly resumeAttempts: number
  /** Task polling set for this client, over each kind's defaults. */
  readonly taskPoll: PollDelayOptions
  /** Deadline of following a task, in ms. */
  readonly taskDeadlineMs: number
  /** Hosts the `audio_url` check of `textToVideo$` may read at private addresses (see `ClientOptions.allowHosts`). */
  readonly allowHosts?: readonly string[]
  /** Private addresses allowed to the `audio_url` check of `textToVideo$` (see `ClientOptions.allowPrivateNetwork`). */
  readonly allowPrivateNetwork?: boolean
}

/**
 * Creates a client for the gateway at `baseUrl`. Throws {@link InvalidRequestError}
 * at once when an option is missing or malformed.
 *
 * @example
 * ```ts
 * import { createClient, responses$, outputText } from 'rxgate'
 *
 * const client = createClient({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * responses$(client, { model: 'gpt-4.1-mini', input: 'Write a haiku' }).pipe(outputText()).subscribe(console.log)
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function createClient(options: ClientOptions): Client {
  const issues: RequestIssue[] = []
  const { baseUrl, apiKey } = options ?? ({} as ClientOptions)
  const origin = pageOrigin()
  const local = typeof baseUrl === 'string' && ((origin !== undefined && /^\/(?!\/)/.test(baseUrl)) || (origin !== undefined && baseUrl.startsWith(`${origin}/`)))
  if (typeof baseUrl !== 'string' || !baseUrl) issues.push({ path: 'baseUrl', message: 'is required' })
  else if (!local && !/^https?:\/\/[^/]/.test(baseUrl)) {
    issues.push({ path: 'baseUrl', message: origin ? 'must be an http(s) URL or a path of this page\'s origin such as /api/rxgate' : 'must be an http:// or https:// URL' })
  }
  const key = typeof apiKey === 'string' ? apiKey.trim() : undefined
  if (apiKey !== undefined && !key) issues.push({ path: 'apiKey', message: 'must not be empty' })
  else if (!key && !local) issues.push({ path: 'apiKey', message: 'is required (the gateway token)' })
  if (key && origin !== undefined && options.dangerouslyAllowBrowser !== true) {
    issues.push({
      path: 'apiKey',
      message:
        'is refused in browser code, where anyone can read it: call your own server (baseUrl: "/api/rxgate" with rxgate/server) or pass dangerouslyAllowBrowser: true',
    })
  }
  const positive = (name: keyof ClientOptions, fallback: number, max = MAX_TIMER_MS): number => {
    const value = (options?.[name] as number | undefined) ?? fallback
    if (!(Number.isInteger(value) && value > 0 && value <= max)) issues.push({ path: name, message: `must be an integer from 1 to ${max} (got ${value})` })
    return value
  }
  const timeoutMs = positive('timeoutMs', DEFAULTS.timeoutMs)
  const maxBodyBytes = positive('maxBodyBytes', DEFAULTS.maxBodyBytes, Number.MAX_SAFE_INTEGER)
  const maxEventBytes = positive('maxEventBytes', DEFAULTS.maxEventBytes, Number.MAX_SAFE_INTEGER)
  const taskDeadlineMs = positive('taskDeadlineMs', DEFAULTS.taskDeadlineMs)
  if (options?.maxConnections !== undefined) positive('maxConnections', 1, 1_000_000)
  const maxConcurrency = options?.maxConcurrency === undefined ? Number.POSITIVE_INFINITY : positive('maxConcurrency', 1, 1_000_000)
  const maxRequestsPerSecond = options?.maxRequestsPerSecond
  if (maxRequestsPerSecond !== undefined && !(typeof maxRequestsPerSecond === 'number' && maxRequestsPerSecond >= 0.001 && maxRequestsPerSecond <= 1_000_000)) {
    issues.push({ path: 'maxRequestsPerSecond', message: `must be a number from 0.001 to 1000000 (got ${String(maxRequestsPerSecond)})` })
  }
  const maxTokensPerMinute = options?.maxTokensPerMinute
  if (maxTokensPerMinute !== undefined && !(Number.isInteger(maxTokensPerMinute) && maxTokensPerMinute >= 1 && maxTokensPerMinute <= Number.MAX_SAFE_INTEGER)) {
    issues.push({ path: 'maxTokensPerMinute', message: `must be a positive integer (got ${String(maxTokensPerMinute)})` })
  }
  checkRest(issues, options)
  if (issues.length > 0) throw new InvalidRequestError(issues, 'client options')

  const secret = key || undefined
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value
  if (secret) headers.authorization = `Bearer ${secret}`
  else delete headers.authorization
  const retry: Client['retry'] = options.retry === false ? false : { ...DEFAULTS.retry, ...options.retry }
  const scheduler = options.scheduler ?? asyncScheduler
  const adaptive = options.adaptToRateLimits !== false
  const budget =
    adaptive || maxConcurrency !== Number.POSITIVE_INFINITY || maxRequestsPerSecond !== undefined || maxTokensPerMinute !== undefined
      ? new Budget({
          maxConcurrency,
          adaptive,
          maxPauseMs: (retry || DEFAULTS.retry).maxRetryAfterMs,
          scheduler,
          ...(maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond }),
          ...(maxTokensPerMinute === undefined ? {} : { maxTokensPerMinute, responsesPath: options.responsesPath ?? DEFAULTS.responsesPath }),
        })
      : undefined
  const { hooks } = options
  const gate = hooks && (hooks.onRequest || hooks.onResponse) ? observedGate(hooks, key || undefined, budget) : budget
  const client = {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    transport: options.transport ?? (options.fetch ? fetchTransport(options.fetch) : defaultTransport({ maxConnections: options.maxConnections })),
    ...(options.exchange ? { exchange: options.exchange } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    timeoutMs,
    maxBodyBytes,
    maxEventBytes,
    scheduler,
    gate,
    budget,
    hooks,
    retry,
    idempotentCreate: options.idempotentCreate === true,
    pacedRateLimits: adaptive,
    responsesPath: options.responsesPath ?? DEFAULTS.responsesPath,
    responsePoll: { ...DEFAULTS.responsePoll, ...options.responsePoll },
    resumeAttempts: options.resumeAttempts ?? DEFAULTS.resumeAttempts,
    taskPoll: options.taskPoll ?? {},
    taskDeadlineMs,
    allowHosts: Object.freeze([...(options.allowHosts ?? [])]),
    allowPrivateNetwork: options.allowPrivateNetwork === true,
  }
  // Held, but out of `console.log(client)` and `JSON.stringify(client)`.
  Object.defineProperties(client, { headers: { value: headers }, secret: { value: secret } })
  return client as typeof client & Pick<Client, 'headers' | 'secret'>
}

const OPTION_TYPES: Readonly<Record<keyof ClientOptions, 'string' | 'number' | 'boolean' | 'function' | 'object'>> = {
  baseUrl: 'string',
  apiKey: 'string',
  dangerouslyAllowBrowser: 'boolean',
  fetch: 'function',
  transport: 'function',
  exchange: 'function',
  maxConnections: 'number',
  timeoutMs: 'number',
  maxBodyBytes: 'number',
  maxEventBytes: 'number',
  retry: 'object',
  idempotentCreate: 'boolean',
  headers: 'object',
  responsesPath: 'string',
  responsePoll: 'object',
  resumeAttempts: 'number',
  taskPoll: 'object',
  taskDeadlineMs: 'number',
  maxConcurrency: 'number',
  adaptToRateLimits: 'boolean',
  maxRequestsPerSecond: 'number',
  maxTokensPerMinute: 'number',
  hooks: 'object',
  telemetry: 'object',
  scheduler: 'object',
  allowHosts: 'object',
  allowPrivateNetwork: 'boolean',
}

/** The options the checks above leave: unknown names (a typo keeps a default without a word), types, timings, headers, path. */
function checkRest(issues: RequestIssue[], given: ClientOptions | undefined): void {
  const options = given ?? ({} as ClientOptions)
  checkPublicNetwork(issues, options) // first: "must be an array" says more than the type table's "an object"
  for (const [name, value] of Object.entries(options)) {
    const type = Object.hasOwn(OPTION_TYPES, name) ? OPTION_TYPES[name as keyof ClientOptions] : undefined
    if (!type) issues.push({ path: name, message: 'is not an option of createClient' })
    else if (value !== undefined && typeof value !== type && !(name === 'retry' && value === false) && !issues.some((issue) => issue.path === name)) {
      issues.push({ path: name, message: `must be ${type === 'object' ? 'an' : 'a'} ${type} (got ${value === null ? 'null' : typeof value})` })
    }
  }
  if (options.retry !== false && typeof options.retry === 'object') checkFields(issues, 'retry', options.retry, RETRY_CHECKS)
  if (typeof options.responsePoll === 'object') checkFields(issues, 'responsePoll', options.responsePoll, POLL_CHECKS)
  if (typeof options.taskPoll === 'object') checkFields(issues, 'taskPoll', options.taskPoll, POLL_CHECKS)
  if (typeof options.headers === 'object') checkHeaders(issues, 'headers', options.headers)
  if (typeof options.telemetry === 'object' && options.telemetry !== null && typeof options.telemetry.operation !== 'function') {
    issues.push({ path: 'telemetry', message: 'must have an operation method (e.g. openTelemetry() from rxgate/otel)' })
  }
  if (options.resumeAttempts !== undefined) {
    const broken = count(100)(options.resumeAttempts)
    if (broken) issues.push({ path: 'resumeAttempts', message: broken })
  }
  if (typeof options.responsesPath === 'string' && !/^\/[^?#\s]*$/.test(options.responsesPath)) {
    issues.push({ path: 'responsesPath', message: 'must be a path starting with / (no query, no spaces)' })
  }
}

/** The page's origin in a browser (or a worker), undefined elsewhere. */
function pageOrigin(): string | undefined {
  const g = globalThis as { document?: unknown; location?: { origin?: unknown }; importScripts?: unknown }
  if (g.document === undefined && typeof g.importScripts !== 'function') return undefined
  return typeof g.location?.origin === 'string' ? g.location.origin : ''
}

/** A client made by `createClient` (by shape: one from another copy of rxgate serves too). */
export function isClientLike(value: unknown): value is Client {
  return typeof value === 'object' && value !== null && typeof (value as Partial<Client>).baseUrl === 'string' && typeof (value as Partial<Client>).transport === 'function'
}

/** What a call given something else as its client ends in, before anything is sent. */
export function notAClient(value: unknown): InvalidRequestError {
  return new InvalidRequestError([{ path: 'client', message: `must be a client made by createClient() (got ${value === null ? 'null' : typeof value})` }])
}

/**
 * The boundary every public Observable leaves through: `build` makes the
 * call's Observable at subscription (so a call stays cold, and a bad input
 * thrown while building becomes an error notification), and any error
 * becomes an rxgate error (see `asGatewayError`) masked of the key, whatever made it.
 */
export function guard$<T>(client: Client, build: () => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    if (!isClientLike(client)) return subscriber.error(notAClient(client))
    const guard = new Guard(subscriber, client.secret)
    let source: Observable<T>
    try {
      source = build()
    } catch (e) {
      guard.error(e)
      return
    }
    source.subscribe(guard)
    return guard
  })
}

/**
 * Passes values on and sanitises the error. It is a Subscription as well,
 * which RxJS takes as the subscriber itself: no wrapper objects per call.
 */
class Guard<T> extends Subscription implements Observer<T> {
  constructor(
    private readonly destination: Subscriber<T>,
    private readonly secret: string | undefined,
  ) {
    super()
  }

  next(value: T): void {
    this.destination.next(value)
  }

  error(error: unknown): void {
    this.destination.error(redactError(asGatewayError(error), this.secret))
  }

  complete(): void {
    this.destination.complete()
  }
}
