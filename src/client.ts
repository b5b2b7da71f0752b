import { asyncScheduler, Observable, Subscription, type Observer, type Subscriber } from 'rxjs'
import type * as v from 'valibot'
import { asGatewayError } from './errors/GatewayError.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { redactError } from './errors/redact.js'
import { DEFAULTS, setFields, type PollDelayOptions } from './policy/defaults.js'
import type { RetryPolicy } from './policy/rules.js'
import { Budget } from './policy/budget.js'
import { observedGate, type ClientHooks } from './hooks.js'
import type { Telemetry } from './telemetry.js'
import { defaultTransport } from './transport/defaultTransport.js'
import { fetchTransport } from './transport/fetchTransport.js'
import type { Connection } from './transport/types.js'
import { clientOptionIssues, type ClientOptionsSchema } from './clientOptions.js'

/**
 * Options of {@link createClient} (and `createGateway`): the input type of the
 * client options schema, so each option's type, rule and TSDoc are written
 * once, where it is checked.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members are the schema's; an interface keeps the type named in the reference
export interface ClientOptions extends v.InferInput<typeof ClientOptionsSchema> {}

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
  /** A server-side render's client: the `audio_url` check sends nothing either (see `ClientOptions.serverRendering`). */
  readonly serverRendering?: boolean
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
  const issues = clientOptionIssues(options, pageOrigin())
  if (issues.length > 0) throw new InvalidRequestError(issues, 'client options')

  const { maxRequestsPerSecond, maxTokensPerMinute } = options
  const maxConcurrency = options.maxConcurrency ?? Number.POSITIVE_INFINITY
  const secret = options.apiKey?.trim() || undefined
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value
  if (secret) headers.authorization = `Bearer ${secret}`
  else delete headers.authorization
  const retry: Client['retry'] = options.retry === false ? false : { ...DEFAULTS.retry, ...setFields(options.retry) }
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
  const gate = hooks && (hooks.onRequest || hooks.onResponse) ? observedGate(hooks, secret, budget) : budget
  const client = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    transport: options.transport ?? (options.fetch ? fetchTransport(options.fetch) : defaultTransport({ maxConnections: options.maxConnections })),
    ...(options.exchange ? { exchange: options.exchange } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxEventBytes: options.maxEventBytes ?? DEFAULTS.maxEventBytes,
    scheduler,
    gate,
    budget,
    hooks,
    retry,
    idempotentCreate: options.idempotentCreate === true,
    pacedRateLimits: adaptive,
    responsesPath: options.responsesPath ?? DEFAULTS.responsesPath,
    responsePoll: { ...DEFAULTS.responsePoll, ...setFields(options.responsePoll) },
    resumeAttempts: options.resumeAttempts ?? DEFAULTS.resumeAttempts,
    taskPoll: setFields(options.taskPoll),
    taskDeadlineMs: options.taskDeadlineMs ?? DEFAULTS.taskDeadlineMs,
    allowHosts: Object.freeze([...(options.allowHosts ?? [])]),
    allowPrivateNetwork: options.allowPrivateNetwork === true,
    serverRendering: options.serverRendering === true,
  }
  // Held, but out of `console.log(client)` and `JSON.stringify(client)`.
  Object.defineProperties(client, { headers: { value: headers }, secret: { value: secret } })
  return client as typeof client & Pick<Client, 'headers' | 'secret'>
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
