import type { SchedulerLike } from 'rxjs'
import * as v from 'valibot'
import type { RequestIssue } from './errors/InvalidRequestError.js'
import type { ClientHooks } from './hooks.js'
import type { Telemetry } from './telemetry.js'
import { isHostEntry, notHostEntry, notHostList } from './transport/allowHosts.js'
import { clearTextKeyMessage, keyStaysLocal } from './transport/loopbackName.js'
import type { Exchange, Transport } from './transport/types.js'
import { toIssues } from './validation/check.js'
import { isPlainObject, knownFields, typed, typeName, type OptionsOf } from './validation/fields.js'
import { flag, HeadersSchema, integerFromTo, milliseconds, numberFromTo, PollSchema, RetrySchema } from './validation/options.js'

// The options of `createClient`, declared once: `ClientOptions` is this
// schema's input type, each field's TSDoc is written on its entry, and
// `createClient` reads its options with it. What depends on the page the
// client runs in (`addressIssues` below) is checked beside it.

const text = typed<string>('a string', (value) => typeof value === 'string')
const isFunction = (value: unknown): boolean => typeof value === 'function'

/** Every entry a hostname, a `host:port` or an origin; each broken one is named by its index. */
const hostList = v.pipe(
  v.custom<readonly string[]>(Array.isArray, (issue) => notHostList(issue.input)),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const input = dataset.value as unknown[]
    // A loop, not forEach: a hole is an entry too (undefined), and is refused.
    for (let key = 0; key < input.length; key++) {
      const value = input[key]
      if (!isHostEntry(value)) addIssue({ message: notHostEntry(value), path: [{ type: 'array', origin: 'value', input, key, value }] })
    }
  }),
)

const CLIENT_OPTIONS = {
  /**
   * The gateway's address, e.g. `https://gateway.example.com` (paths are
   * appended). In a browser, also a path of the page's own origin such as
   * `/api/rxgate`: the app's server (see `rxgate/server`) forwards the calls
   * with the key it holds.
   */
  baseUrl: v.custom<string>(
    (value) => typeof value === 'string' && value !== '',
    (issue) => (issue.input === undefined || issue.input === '' ? 'is required' : `must be a string (got ${typeName(issue.input)})`),
  ),
  /**
   * Sent as `Authorization: Bearer <apiKey>` on every call. Required for a
   * gateway on another origin; not needed behind the app's own server.
   */
  apiKey: v.optional(v.pipe(text, v.check((key) => key.trim() !== '', 'must not be empty'))),
  /**
   * Allow an `apiKey` in browser code. Anyone who opens the page can read it,
   * so the default is to refuse; put the key on a server instead.
   *
   * @defaultValue `false`
   */
  dangerouslyAllowBrowser: v.optional(flag),
  /**
   * Allow an `apiKey` over plain `http://` to a host other than this machine
   * (`localhost`, `127.x.x.x` and `[::1]` need nothing).
   * Anyone on the way can read the key there and call the gateway with it,
   * so such a `baseUrl` is refused by default; use `https://`, or set this
   * for a gateway on a network you trust (a sidecar, a lab).
   *
   * @example
   * ```ts
   * createClient({ baseUrl: 'http://gateway.internal:8080', apiKey, allowInsecureHttp: true })
   * ```
   *
   * @defaultValue `false`
   */
  allowInsecureHttp: v.optional(flag),
  /** A `fetch` to send requests with. @defaultValue undici's pooled dispatcher in Node, the page's `fetch` in a browser */
  fetch: v.optional(typed<typeof globalThis.fetch>('a function', isFunction)),
  /** A transport of your own (any HTTP stack, a test double); takes precedence over `fetch`. */
  transport: v.optional(typed<Transport>('a function', isFunction)),
  /**
   * An exchange of your own: replies as Observable notifications instead of
   * Promises, so a whole call can run in virtual time (RxJS `TestScheduler`).
   * `createTestGateway` from `rxgate/testing` makes one. Takes precedence over
   * `transport` and `fetch`.
   */
  exchange: v.optional(typed<Exchange>('a function', isFunction)),
  /** Node: most connections open at once for JSON requests (further ones wait for one); streams have their own, unlimited pool. @defaultValue `128` */
  maxConnections: v.optional(integerFromTo(1, 1_000_000)),
  /** Longest silence, in ms: no whole JSON reply, or no complete stream event (pings do not count). @defaultValue `600_000` ({@link DEFAULTS | DEFAULTS.timeoutMs}) */
  timeoutMs: v.optional(milliseconds(1)),
  /** Largest JSON reply body, in bytes, counted as read (after any decoding a `fetch` does); past it the request is aborted. @defaultValue `32 * 1024 * 1024` ({@link DEFAULTS | DEFAULTS.maxBodyBytes}) */
  maxBodyBytes: v.optional(integerFromTo(1, Number.MAX_SAFE_INTEGER)),
  /** Largest single stream event, in bytes; past it the request is aborted. @defaultValue `16 * 1024 * 1024` ({@link DEFAULTS | DEFAULTS.maxEventBytes}) */
  maxEventBytes: v.optional(integerFromTo(1, Number.MAX_SAFE_INTEGER)),
  /**
   * Retry policy for failed calls, or `false` for none. Fields left out keep
   * their defaults (see {@link RetryOptions}).
   *
   * @defaultValue `{ count: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 }` ({@link DEFAULTS | DEFAULTS.retry})
   */
  retry: v.optional(v.lazy((input) => (input === false ? v.literal(false) : RetrySchema))),
  /**
   * The gateway honours `Idempotency-Key`: a creation whose outcome is unknown
   * (the connection broke after sending, a 5xx, an unreadable reply) is sent
   * again with the same key instead of ending in `TaskCreationUnknownError`,
   * up to 5 failures in a row of any kind that may pass (or `retry.count`, if
   * higher).
   *
   * @defaultValue `false`
   */
  idempotentCreate: v.optional(flag),
  /** Extra headers for every call, as a plain object; `Authorization` is not one of them (it is sent from `apiKey`). */
  headers: v.optional(
    v.pipe(
      HeadersSchema,
      // Read whatever else is wrong with the headers, so every issue is reported at once.
      v.rawCheck(({ dataset, addIssue }) => {
        if (!isPlainObject(dataset.value)) return
        const input = dataset.value as Readonly<Record<string, string>>
        for (const key of Object.keys(input)) {
          // Sent from apiKey alone: a second one would be dropped or contradict it, never what was meant.
          if (key.toLowerCase() === 'authorization') addIssue({ message: 'cannot be an extra header: the client sends Authorization from apiKey', path: [{ type: 'object', origin: 'value', input, key, value: input[key] }] })
        }
      }),
    ),
  ),
  /** Path of response creation; retrieval is at `{responsesPath}/{id}`. @defaultValue `'/vendors/vendor-a/v1/responses'` ({@link DEFAULTS | DEFAULTS.responsesPath}) */
  responsesPath: v.optional(v.pipe(text, v.regex(/^\/[^?#\s]*$/, 'must be a path starting with / (no query, no spaces)'))),
  /**
   * Polling of background responses: first after 1 s, ×1.5 per poll, at most
   * 10 s apart, up to 10% jitter, unless set here (field by field).
   *
   * @defaultValue `{ initialDelayMs: 1_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.1 }` ({@link DEFAULTS | DEFAULTS.responsePoll})
   */
  responsePoll: v.optional(PollSchema),
  /** Reconnections of a dropped background stream in a row without a new event. @defaultValue `3` ({@link DEFAULTS | DEFAULTS.resumeAttempts}) */
  resumeAttempts: v.optional(integerFromTo(0, 100)),
  /**
   * Task polling for every task of this client, field by field over the
   * defaults of each task's kind: videos from 10 s growing to 20 s, images
   * from 2 s to 10 s.
   *
   * @defaultValue `{ video: { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0.05 }, image: { initialDelayMs: 2_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.05 } }` ({@link DEFAULTS | DEFAULTS.taskPoll}), by kind
   */
  taskPoll: v.optional(PollSchema),
  /** Deadline of following a task, in ms, after which `TaskTimeoutError` is raised. @defaultValue `15 * 60_000` (15 minutes; {@link DEFAULTS | DEFAULTS.taskDeadlineMs}) */
  taskDeadlineMs: v.optional(milliseconds(1)),
  /**
   * Most requests in flight at once for the whole client (a stream counts
   * until it ends); the others wait their turn, first come, first served, so
   * thousands of task polls share it fairly.
   *
   * @defaultValue `Infinity` (no limit)
   */
  maxConcurrency: v.optional(integerFromTo(1, 1_000_000)),
  /**
   * After a 429 rate limit, every request of the client waits out its
   * `Retry-After` (or a growing backoff, at most `retry.maxRetryAfterMs`) and
   * fewer go at once, growing back one success at a time.
   *
   * @defaultValue `true`
   */
  adaptToRateLimits: v.optional(flag),
  /**
   * Most requests the client sends per second, evenly spaced (`1000 / n` ms
   * apart; retries and task polls count), so a gateway that allows `n` per
   * second never answers 429. Fractions allowed (`0.5`: one every 2 s).
   * Default: no limit.
   */
  maxRequestsPerSecond: v.optional(numberFromTo(0.001, 1_000_000)),
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
  maxTokensPerMinute: v.optional(integerFromTo(1, Number.MAX_SAFE_INTEGER, 'must be a positive integer')),
  /** Observers of every request, response and token usage (logs, metrics, traces); they never see the key. */
  hooks: v.optional(typed<ClientHooks>('an object', isPlainObject)),
  /**
   * Traces every call and each of its requests, e.g. `openTelemetry()` from
   * `rxgate/otel` (OpenTelemetry spans, metrics and `traceparent` headers).
   * Default: none, at no cost.
   */
  telemetry: v.optional(
    v.custom<Telemetry>(
      (value) => isPlainObject(value) && typeof (value as Partial<Telemetry>).operation === 'function',
      (issue) => (isPlainObject(issue.input) ? 'must have an operation method (e.g. openTelemetry() from rxgate/otel)' : `must be an object (got ${typeName(issue.input)})`),
    ),
  ),
  /** Scheduler of every timer (timeouts, retries, polls); inject a virtual one in tests. @defaultValue RxJS's `asyncScheduler` */
  scheduler: v.optional(
    typed<SchedulerLike>('an RxJS scheduler, with now() and schedule()', (value) => isPlainObject(value) && isFunction((value as SchedulerLike).now) && isFunction((value as SchedulerLike).schedule)),
  ),
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
  allowHosts: v.optional(hostList),
  /**
   * Every address allowed to the `audio_url` check of `textToVideo$`,
   * private ones included (for development); only `true` does it, anything
   * else but a boolean is refused. Downloads take their own.
   *
   * @defaultValue `false`
   */
  allowPrivateNetwork: v.optional(flag),
  /**
   * The client stands in for the browser's during a server-side render
   * (`serverRendering` of `rxgate/angular` sets it, with a transport that
   * never answers): the `audio_url` check of `textToVideo$`, which reads the
   * file with a fetch of its own rather than the transport, is not made
   * either, so the render sends nothing; the browser checks when it calls.
   *
   * @defaultValue `false`
   */
  serverRendering: v.optional(flag),
}

/** The options of `createClient`, each with its type, its rule and its message; `ClientOptions` is its input type. */
export const ClientOptionsSchema = knownFields<OptionsOf<typeof CLIENT_OPTIONS>>(CLIENT_OPTIONS, 'is not an option of createClient')

const ORDER = Object.keys(CLIENT_OPTIONS)
/** An issue's place: that of its option in {@link ClientOptionsSchema}, unknown names last. */
function rank(issue: RequestIssue): number {
  const at = ORDER.indexOf(issue.path.split(/[.[]/)[0]!)
  return at < 0 ? ORDER.length : at
}

/**
 * Everything wrong with the options of `createClient` in a page at `origin`
 * (undefined outside a browser): the schema's issues and those of
 * `baseUrl` and `apiKey` read together, at once, in the order of the options
 * (unknown names last). Empty when nothing is wrong; no options at all are
 * read as `{}`.
 *
 * @example
 * ```ts
 * clientOptionIssues({ baseUrl: 'https://gw.example', apiKey: 'k', timeout: 5_000, timeoutMs: 0 }, undefined)
 * // [{ path: 'timeoutMs', message: 'must be an integer of milliseconds from 1 to 2147483647 (got 0)' },
 * //  { path: 'timeout', message: 'is not an option of createClient' }]
 * ```
 */
export function clientOptionIssues(options: unknown, origin: string | undefined): RequestIssue[] {
  const given = options ?? {}
  const result = v.safeParse(ClientOptionsSchema, given)
  const issues = [...(result.success ? [] : toIssues(result.issues, true)), ...(isPlainObject(given) ? [...addressIssues(given, origin), ...reservedNames(given)] : [])]
  return issues.sort((a, b) => rank(a) - rank(b))
}

/** Names valibot's object schemas pass over (they could pollute a prototype): never options, so refused as any unknown name is. */
function reservedNames(given: object): RequestIssue[] {
  return ['__proto__', 'constructor', 'prototype'].filter((name) => Object.hasOwn(given, name)).map((path) => ({ path, message: 'is not an option of createClient' }))
}

interface AddressOptions {
  readonly baseUrl?: unknown
  readonly apiKey?: unknown
  readonly dangerouslyAllowBrowser?: unknown
  readonly allowInsecureHttp?: unknown
}

/**
 * What the page decides: in a browser, `baseUrl` may be a path of the page's
 * origin, which needs no key; a key in page code is refused unless
 * `dangerouslyAllowBrowser`. A key over plain http to another machine is
 * refused unless `allowInsecureHttp`. The shapes themselves are the schema's.
 */
function addressIssues({ baseUrl, apiKey, dangerouslyAllowBrowser, allowInsecureHttp }: AddressOptions, origin: string | undefined): RequestIssue[] {
  const issues: RequestIssue[] = []
  const local = typeof baseUrl === 'string' && origin !== undefined && (/^\/(?!\/)/.test(baseUrl) || baseUrl.startsWith(`${origin}/`))
  if (typeof baseUrl === 'string' && baseUrl && !local && !/^https?:\/\/[^/]/.test(baseUrl)) {
    issues.push({ path: 'baseUrl', message: origin ? "must be an http(s) URL or a path of this page's origin such as /api/rxgate" : 'must be an http:// or https:// URL' })
  }
  if (apiKey === undefined && !local) issues.push({ path: 'apiKey', message: 'is required (the gateway token)' })
  if (typeof apiKey === 'string' && apiKey.trim() && origin !== undefined && dangerouslyAllowBrowser !== true) {
    issues.push({
      path: 'apiKey',
      message: 'is refused in browser code, where anyone can read it: call your own server (baseUrl: "/api/rxgate" with rxgate/server) or pass dangerouslyAllowBrowser: true',
    })
  }
  const host = typeof apiKey === 'string' && apiKey.trim() && allowInsecureHttp !== true ? clearTextHost(baseUrl, origin) : undefined
  if (host !== undefined) {
    issues.push({ path: 'baseUrl', message: clearTextKeyMessage(host) })
  }
  return issues
}

/**
 * The host of `baseUrl` (a path read against the page's origin) when a key
 * sent there would cross the network in clear text (see `keyStaysLocal`);
 * undefined otherwise, or for what is no URL at all (refused above).
 */
function clearTextHost(baseUrl: unknown, origin: string | undefined): string | undefined {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl, origin || undefined)) return undefined
  const url = new URL(baseUrl, origin || undefined)
  return url.protocol !== 'http:' || url.hostname === '' || keyStaysLocal(url) ? undefined : url.hostname
}
