import type { TaskEndpoint } from './contract/endpoint.js'
import type { GatewayError } from './errors/GatewayError.js'
import type { TaskEvent } from './operators/pollTask.js'
import type { AttemptTracer } from './transport/types.js'
import type { Response } from './validation/response.js'

// The shapes a telemetry implements (the client option `telemetry`), apart from the code that calls them,
// so that the guard around a trace (safeTrace.ts) and the calls (telemetry.ts) both read them from here.

/**
 * Traces a client's calls (the client option `telemetry`). rxgate calls
 * `operation` once per call at its subscription, and nothing when the option
 * is not set. `openTelemetry()` from `rxgate/otel` is the implementation
 * rxgate ships; one of your own needs no OpenTelemetry at all. What its
 * methods throw (or the promises they return reject with) never reaches the
 * call: it is reported as an unhandled error, as RxJS reports its own
 * (`config.onUnhandledError`, else thrown on a later turn).
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl, apiKey, telemetry: openTelemetry() })
 * ```
 */
export interface Telemetry {
  /** A call starts (at its subscription; synchronously, so the caller's active context is the one around `subscribe`). */
  operation(info: OperationInfo): OperationTrace
}

/** What a traced call is, known before its first request. */
export interface OperationInfo {
  /**
   * `chat` (`responses$`, each round of `runTools$`), `generate_content` (a
   * media task created and followed, or followed by `task$`), or
   * `retrieve_response` and `cancel_response` (reads of a response already made).
   */
  readonly operation: 'chat' | 'generate_content' | 'retrieve_response' | 'cancel_response'
  /** The model asked for: the body's `model`, or the endpoint's model for a task; unknown for retrievals. */
  readonly model: string | undefined
  /** The gateway's address (the client's `baseUrl`), for `server.address`. */
  readonly baseUrl: string
  /** The path of the call's first request, without its query (`/vendors/{vendor}/…` names the provider). */
  readonly path: string
  /** The request body as the caller gave it (a response or task creation), for request settings and, if asked, content. */
  readonly request?: object | undefined
  /** The reply is a stream of events. */
  readonly stream?: boolean | undefined
  /** The media endpoint of a task. */
  readonly endpoint?: TaskEndpoint | undefined
  /** The id of the task or response the call is about, when known before it starts (`task$`, retrievals). */
  readonly id?: string | undefined
  /** Masks the API key (and fragments of it) in a text: apply it to every text taken from the gateway or the caller. */
  readonly redact: (text: string) => string
}

/** How a call ended: completed, failed (then with its error), or left by its subscriber. */
export type OperationOutcome = 'ok' | 'error' | 'cancelled'

/** The trace of one call: told of each try of its requests, of what the gateway answered, and of its end. */
export interface OperationTrace extends AttemptTracer {
  /** A Response the call saw: a single reply, each new status of a background one, or the one a stream's lifecycle event carries. */
  response(response: Response): void
  /** A task event the call emitted (`created`, `pending`, `processing`, `completed`). */
  taskStatus(event: TaskEvent): void
  /** The call ended; called once. `error` (masked of the key) comes with `'error'`. */
  end(outcome: OperationOutcome, error?: GatewayError): void
}
