import type { IncomingMessage, ServerResponse } from 'node:http'
import * as v from 'valibot'
import { toIssues } from '../validation/check.js'

/** One request the simulator received, as tests see it. */
export interface SimRequestLog {
  readonly method: string
  /** The path without the query. */
  readonly path: string
  /** The query, with its `?`, or `''`. */
  readonly search: string
  /** The status sent, or 0 while no reply has started. */
  readonly status: number
  /** True when the client went away before the reply was complete. */
  readonly aborted: boolean
  /** Simulated time of arrival, epoch ms. */
  readonly at: number
}

/** A request being answered, with what every handler needs. */
export interface Call {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly url: URL
  /** The route pattern's captured groups. */
  readonly params: readonly string[]
  /** Aborts when the reply ends, the client goes away or the simulator closes. */
  readonly signal: AbortSignal
  readonly log: { -readonly [K in keyof SimRequestLog]: SimRequestLog[K] }
  /** Destroys the connection on the server's initiative (so it is not counted as closed by the client). */
  destroy(): void
}

/** A route: requests whose method and path match go to `handle`. */
export interface Route {
  readonly method: 'GET' | 'POST'
  /** Matched against the whole path; its groups become `call.params`. */
  readonly pattern: RegExp
  /** Public routes (result files) need no token and are never faulted. */
  readonly public?: boolean
  handle(call: Call): Promise<void> | void
}

/** Thrown by a handler to answer with a JSON error; the server sends it. */
export class SimHttpError extends Error {
  override name = 'SimHttpError' as const
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`HTTP ${status}`)
  }
}

/** A rejection in the OpenAI error shape `{ error: { message, type, param, code } }`. */
export function apiError(status: number, message: string, code: string, extra: ApiErrorExtra = {}): SimHttpError {
  const { type = status >= 500 ? 'server_error' : 'invalid_request_error', param = null, headers } = extra
  return new SimHttpError(status, { error: { message, type, param, code } }, headers)
}

/** Optional parts of {@link apiError}: the error `type` (default by status), the `param` at fault, extra headers. */
export interface ApiErrorExtra {
  readonly type?: string
  readonly param?: string | null
  readonly headers?: Readonly<Record<string, string>>
}

/** Sends a JSON reply and records its status. */
export function sendJson(call: Call, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body)
  call.log.status = status
  call.res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  call.res.end(text)
}

const MAX_BODY_BYTES = 1_000_000

/** Reads the body as JSON; an oversized or unparsable body is a 413 or 400. */
export async function readJson(call: Call): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of call.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw apiError(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`, 'body_too_large')
    chunks.push(chunk)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw apiError(400, 'The body is not valid JSON: send a JSON object with Content-Type: application/json.', 'invalid_json')
  }
}

/** Checks a body against a schema; a violation is a 400 naming the first field, e.g. `temperature: must be from 0 to 2 (got 3)`. */
export function checkBody<S extends v.GenericSchema<unknown, unknown>>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body)
  if (result.success) return result.output
  const issues = toIssues(result.issues)
  const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
  throw apiError(400, message, 'invalid_value', { param: issues[0]?.path || null })
}
