import type { TaskEndpoint } from '../contract/endpoint.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { DEFAULTS } from '../policy/defaults.js'
import { optionIssues } from './optionIssues.js'

/**
 * What `authorize` answers: `true` lets the call through; `false` refuses it
 * with a JSON 401; a `Response` (a 403, a 429 with `Retry-After`, a redirect
 * to a login page, …) is sent to the browser as it is.
 */
export type AuthorizeResult = boolean | Response

/** Options of {@link createGatewayHandler}: `baseUrl`, `apiKey`, and `authorize` (or `allowUnauthenticated: true`) are required. */
export interface GatewayHandlerOptions {
  /** The gateway's address, e.g. `https://gateway.example.com`: a path may follow, but no query, fragment or credentials. Only the server knows it. */
  readonly baseUrl: string
  /** The gateway token. It is sent upstream only, and masked in every reply (an upstream error that echoes it included). */
  readonly apiKey: string
  /**
   * Allow `baseUrl` to be plain `http://` to a host other than this machine
   * (`localhost`, `127.x.x.x` and `[::1]` need nothing): anyone on the way
   * could read the key, so it is refused at start by default.
   *
   * @defaultValue `false`
   */
  readonly allowInsecureHttp?: boolean
  /**
   * The path the handler answers under: the browser client's `baseUrl`.
   * A request to `{basePath}/vendors/…` is forwarded as `{baseUrl}/vendors/…`.
   *
   * @defaultValue `'/api/rxgate'`
   */
  readonly basePath?: string
  /**
   * Who may spend the key: the app's check of each call (its session, a
   * CSRF token, a rate limit), run before the body is read. Required, unless
   * `allowUnauthenticated: true` says on purpose that anyone who reaches the
   * server may call; the two cannot be combined.
   *
   * @example A session check and a per-session rate limit (a fixed window:
   * at most 20 calls a minute), answered with a 429 the client waits out:
   * ```ts
   * const windows = new Map<string, { start: number; calls: number }>()
   * const authorize = async (request: Request) => {
   *   const session = await sessions.find(request.headers.get('cookie')) // the app's own
   *   if (!session) return false // a JSON 401
   *   const now = Date.now()
   *   let window = windows.get(session.id)
   *   if (!window || now - window.start >= 60_000) windows.set(session.id, (window = { start: now, calls: 0 }))
   *   if (++window.calls <= 20) return true
   *   const retryAfter = String(Math.ceil((window.start + 60_000 - now) / 1000))
   *   const error = { message: 'Too many calls; try again later.', type: 'rate_limit_error', param: null, code: 'rate_limited' }
   *   return Response.json({ error }, { status: 429, headers: { 'retry-after': retryAfter } })
   * }
   * ```
   */
  readonly authorize?: (request: Request) => AuthorizeResult | Promise<AuthorizeResult>
  /**
   * Lets every call through with no `authorize`: anyone who can reach the
   * server spends the key. Only for a server no one else can reach (a demo
   * on 127.0.0.1, a test).
   *
   * Such a relay answers only calls to a loopback name (`localhost`,
   * `*.localhost`, 127.0.0.0/8, `[::1]`, any port; the request URL's host,
   * which the adapters take from `Host`) and, when `Origin` is sent, from a
   * loopback page; any other gets a JSON 403, `host_not_allowed`. So a site
   * whose name is made to resolve to 127.0.0.1 (DNS rebinding) cannot spend
   * the key. A relay reached by any other name needs `authorize`.
   *
   * @defaultValue `false`
   */
  readonly allowUnauthenticated?: boolean
  /**
   * Models a caller may use: response-creation `model` values (e.g.
   * `gpt-4.1-mini`) and task endpoint names (e.g. `vendor-b/t2v-spark`).
   * Anything else gets a JSON 403.
   *
   * @defaultValue `undefined` (every model)
   */
  readonly models?: readonly string[]
  /**
   * Task endpoints of the app (see `taskEndpoint`) whose tasks may be created
   * and read, beyond the interface's own: text-to-video creation and the
   * result paths. For example `[endpoints.i2vSpark]` allows creating
   * image-to-video tasks. Each is checked at start as the task calls check
   * one (a name, a kind, paths of plain segments).
   *
   * @defaultValue `[]`
   */
  readonly taskEndpoints?: readonly TaskEndpoint[]
  /** Largest request body, in bytes; a larger one gets a JSON 413 and is not read further. @defaultValue `1024 * 1024` (1 MiB) */
  readonly maxBodyBytes?: number
  /**
   * Time for a request body to arrive whole, in milliseconds, from when it
   * starts being read; a slower one gets a JSON 408 and is not read further,
   * so a caller sending a byte now and then cannot hold the server.
   *
   * @defaultValue `10_000`
   */
  readonly bodyTimeoutMs?: number
  /** Largest JSON reply read from the gateway, in bytes (masked before it is passed on). @defaultValue `32 * 1024 * 1024`, the client's own limit ({@link DEFAULTS | DEFAULTS.maxBodyBytes}) */
  readonly maxReplyBytes?: number
  /** Path of response creation at the gateway, as in the client. @defaultValue `'/vendors/vendor-a/v1/responses'` ({@link DEFAULTS | DEFAULTS.responsesPath}) */
  readonly responsesPath?: string
  /** Let fields the interface does not list through in text-to-video bodies, as the client's `allowUnknownFields`. @defaultValue `false` */
  readonly allowUnknownTextToVideoFields?: boolean
  /** Extra headers sent upstream with every call. Names and values are checked at start; an `Authorization` among them is refused (the handler sends it from `apiKey`). */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * The `fetch` used to reach the gateway; when given, every call goes through it.
   * @defaultValue the global `fetch` for the fetch-style handler; under `nodeListener` and `expressMiddleware`, undici's dispatcher directly (the global dispatcher when one is set), asking for an uncompressed reply
   */
  readonly fetch?: typeof globalThis.fetch
  /**
   * Called with an unexpected failure (a throwing `authorize`, a bug), masked
   * of the key, before the caller gets a JSON 500.
   *
   * @defaultValue `console.error`
   */
  readonly onError?: (error: unknown, request: Request) => void
}

/** The options with defaults filled in and checked. */
export interface HandlerSettings {
  readonly baseUrl: string
  readonly apiKey: string
  readonly basePath: string
  /** Undefined only when `allowUnauthenticated: true` was passed. */
  readonly authorize: ((request: Request) => AuthorizeResult | Promise<AuthorizeResult>) | undefined
  readonly models: ReadonlySet<string> | undefined
  readonly taskEndpoints: readonly TaskEndpoint[]
  readonly maxBodyBytes: number
  readonly bodyTimeoutMs: number
  readonly maxReplyBytes: number
  readonly responsesPath: string
  readonly allowUnknownTextToVideoFields: boolean
  readonly headers: Readonly<Record<string, string>>
  readonly fetch: typeof globalThis.fetch
  readonly onError: (error: unknown, request: Request) => void
}

const MiB = 1024 * 1024

/**
 * Checks the options once, when the handler is made (see `optionIssues`),
 * and fills in the defaults: a server that starts must not fail on its
 * first call for a typo in its configuration.
 */
export function settingsOf(options: GatewayHandlerOptions): HandlerSettings {
  const issues = optionIssues(options)
  if (issues.length > 0) throw new InvalidRequestError(issues, 'gateway handler options')
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey.trim(),
    basePath: options.basePath ?? '/api/rxgate',
    authorize: options.authorize,
    models: options.models ? new Set(options.models) : undefined,
    taskEndpoints: options.taskEndpoints ?? [],
    maxBodyBytes: options.maxBodyBytes ?? MiB,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
    maxReplyBytes: options.maxReplyBytes ?? DEFAULTS.maxBodyBytes,
    responsesPath: options.responsesPath ?? DEFAULTS.responsesPath,
    allowUnknownTextToVideoFields: options.allowUnknownTextToVideoFields === true,
    headers,
    fetch: options.fetch ?? globalThis.fetch,
    onError: options.onError ?? ((error) => console.error('rxgate/server:', error)),
  }
}
