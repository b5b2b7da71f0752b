import type { TaskEndpoint } from '../contract/endpoint.js'
import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import { DEFAULTS } from '../policy/defaults.js'

/**
 * What `authorize` answers: `true` lets the call through; `false` refuses it
 * with a JSON 401; a `Response` (a 403, a redirect to a login page, …) is
 * sent to the browser as it is.
 */
export type AuthorizeResult = boolean | Response

/** Options of {@link createGatewayHandler}. */
export interface GatewayHandlerOptions {
  /** The gateway's address, e.g. `https://gateway.example.com`. Only the server knows it. */
  readonly baseUrl: string
  /** The gateway token. It is sent upstream only, and masked in every reply (an upstream error that echoes it included). */
  readonly apiKey: string
  /**
   * The path the handler answers under: the browser client's `baseUrl`.
   * A request to `{basePath}/vendors/…` is forwarded as `{baseUrl}/vendors/…`.
   * Default `/api/rxgate`.
   */
  readonly basePath?: string
  /**
   * The app's own check of each call (its session cookie, a CSRF token, a
   * rate limit), run before the body is read. Default: every call is let through.
   */
  readonly authorize?: (request: Request) => AuthorizeResult | Promise<AuthorizeResult>
  /**
   * Models a caller may use: response-creation `model` values (e.g.
   * `gpt-4.1-mini`) and task endpoint names (e.g. `vendor-b/t2v-spark`).
   * Anything else gets a JSON 403. Default: no restriction.
   */
  readonly models?: readonly string[]
  /**
   * Task endpoints of the app (see `taskEndpoint`) whose tasks may be created
   * and read, beyond the interface's own: text-to-video creation and the
   * result paths. For example `[endpoints.i2vSpark]` allows creating
   * image-to-video tasks.
   */
  readonly taskEndpoints?: readonly TaskEndpoint[]
  /** Largest request body, in bytes; a larger one gets a JSON 413 and is not read further. Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** Largest JSON reply read from the gateway, in bytes (masked before it is passed on). Default 32 MiB, the client's own limit. */
  readonly maxReplyBytes?: number
  /** Path of response creation at the gateway, as in the client. Default `/vendors/vendor-a/v1/responses`. */
  readonly responsesPath?: string
  /** Let fields the interface does not list through in text-to-video bodies, as the client's `allowUnknownFields`. Default false. */
  readonly allowUnknownTextToVideoFields?: boolean
  /** Extra headers sent upstream with every call (they cannot replace `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>
  /** The `fetch` used to reach the gateway. Default: Node's global `fetch` (undici). */
  readonly fetch?: typeof globalThis.fetch
  /**
   * Called with an unexpected failure (a throwing `authorize`, a bug), masked
   * of the key, before the caller gets a JSON 500. Default: `console.error`.
   */
  readonly onError?: (error: unknown, request: Request) => void
}

/** The options with defaults filled in and checked. */
export interface HandlerSettings {
  readonly baseUrl: string
  readonly apiKey: string
  readonly basePath: string
  readonly authorize: ((request: Request) => AuthorizeResult | Promise<AuthorizeResult>) | undefined
  readonly models: ReadonlySet<string> | undefined
  readonly taskEndpoints: readonly TaskEndpoint[]
  readonly maxBodyBytes: number
  readonly maxReplyBytes: number
  readonly responsesPath: string
  readonly allowUnknownTextToVideoFields: boolean
  readonly headers: Readonly<Record<string, string>>
  readonly fetch: typeof globalThis.fetch
  readonly onError: (error: unknown, request: Request) => void
}

const MiB = 1024 * 1024

/**
 * Checks the options once, when the handler is made: a server that starts
 * must not fail on its first call for a typo in its configuration.
 */
export function settingsOf(options: GatewayHandlerOptions): HandlerSettings {
  const issues: RequestIssue[] = []
  const { baseUrl, apiKey, basePath = '/api/rxgate' } = options ?? ({} as GatewayHandlerOptions)
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(baseUrl)) issues.push({ path: 'baseUrl', message: 'must be an http:// or https:// URL' })
  if (typeof apiKey !== 'string' || !apiKey.trim()) issues.push({ path: 'apiKey', message: 'is required (the gateway token, held on the server)' })
  if (typeof basePath !== 'string' || !/^(\/[\w.~-]+)*$/.test(basePath)) issues.push({ path: 'basePath', message: `must be a path such as /api/rxgate (got ${JSON.stringify(basePath)})` })
  const size = (name: 'maxBodyBytes' | 'maxReplyBytes', fallback: number): number => {
    const value = options?.[name] ?? fallback
    if (!(Number.isInteger(value) && value > 0)) issues.push({ path: name, message: `must be a positive integer (got ${value})` })
    return value
  }
  const maxBodyBytes = size('maxBodyBytes', MiB)
  const maxReplyBytes = size('maxReplyBytes', DEFAULTS.maxBodyBytes)
  const endpoints = options?.taskEndpoints ?? []
  endpoints.forEach((endpoint, i) => {
    if (!endpoint || typeof endpoint.resultPath !== 'string' || !endpoint.resultPath.startsWith('/')) {
      issues.push({ path: `taskEndpoints.${i}`, message: 'must be a task endpoint (see taskEndpoint)' })
    }
  })
  const responsesPath = options?.responsesPath ?? DEFAULTS.responsesPath
  if (typeof responsesPath !== 'string' || !/^(\/[\w.~-]+)+$/.test(responsesPath)) issues.push({ path: 'responsesPath', message: `must be a path such as ${DEFAULTS.responsesPath}` })
  const fetchFn = options?.fetch ?? globalThis.fetch
  if (typeof fetchFn !== 'function') issues.push({ path: 'fetch', message: 'is required where no global fetch exists' })
  if (issues.length > 0) throw new InvalidRequestError(issues, 'gateway handler options')
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) if (name.toLowerCase() !== 'authorization') headers[name.toLowerCase()] = value
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: apiKey.trim(),
    basePath,
    authorize: options.authorize,
    models: options.models ? new Set(options.models) : undefined,
    taskEndpoints: endpoints,
    maxBodyBytes,
    maxReplyBytes,
    responsesPath,
    allowUnknownTextToVideoFields: options.allowUnknownTextToVideoFields === true,
    headers,
    fetch: fetchFn,
    onError: options.onError ?? ((error) => console.error('rxgate/server:', error)),
  }
}
