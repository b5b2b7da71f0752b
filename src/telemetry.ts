import { Observable } from 'rxjs'
import type { TaskEndpoint } from './contract/endpoint.js'
import { asGatewayError, type GatewayError } from './errors/GatewayError.js'
import { redactError, scrubText } from './errors/redact.js'
import { reportLater } from './callHook.js'
import { safeTrace } from './safeTrace.js'
import type { TaskEvent } from './operators/pollTask.js'
import type { AttemptTracer } from './transport/types.js'
import type { Response } from './validation/response.js'

export type { AttemptSpec, AttemptTrace, AttemptTracer } from './transport/types.js'

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

/**
 * The trace of a call of `client`, when it has telemetry (`redact` and
 * `baseUrl` filled in), guarded by `safeTrace`: a telemetry that throws is
 * reported, never the call's failure (one whose `operation` throws leaves
 * the call untraced). Callers test `client.telemetry` first, so that a
 * client without telemetry builds no `info` either.
 */
export function operationOf(
  client: { readonly telemetry?: Telemetry | undefined; readonly baseUrl: string; readonly secret: string | undefined },
  info: Omit<OperationInfo, 'redact' | 'baseUrl'>,
): OperationTrace | undefined {
  const { telemetry, secret } = client
  if (!telemetry) return undefined
  const redact = secret ? (text: string) => scrubText(text, secret) : (text: string) => text
  try {
    return safeTrace(telemetry.operation({ ...info, baseUrl: client.baseUrl, redact }))
  } catch (error) {
    // A telemetry that fails to start a trace leaves the call untraced, never broken.
    reportLater(error)
    return undefined
  }
}

/** `spec` carrying the call's trace (the same object when there is none). */
export function withTrace<S extends object>(spec: S, trace: OperationTrace | undefined): S {
  return trace ? { ...spec, trace } : spec
}

/**
 * `source` with its end told to `trace`: completion, error (masked of the
 * key), or the subscriber leaving first. `see` is shown each value on its way.
 * Without a trace, `source` itself.
 */
export function traced$<T>(trace: OperationTrace | undefined, source: Observable<T>, secret: string | undefined, see?: (trace: OperationTrace, value: T) => void): Observable<T> {
  // Untraced (no telemetry on the client): the call itself, with nothing around it.
  if (!trace) return source
  return new Observable<T>((subscriber) => {
    let ended = false
    const end = (outcome: OperationOutcome, error?: unknown): void => {
      if (ended) return
      ended = true
      trace.end(outcome, error === undefined ? undefined : cleanError(error, secret))
    }
    const subscription = source.subscribe({
      next(value) {
        see?.(trace, value)
        subscriber.next(value)
      },
      error(error: unknown) {
        end('error', error)
        subscriber.error(error)
      },
      complete() {
        end('ok')
        subscriber.complete()
      },
    })
    return () => {
      subscription.unsubscribe()
      end('cancelled')
    }
  })
}

/** The rxgate error a trace is told of, masked of the key as subscribers get it. */
export function cleanError(error: unknown, secret: string | undefined): GatewayError {
  return redactError(asGatewayError(error), secret)
}

/** Tells a trace of a Response a call emitted: one itself, or the one a stream's lifecycle event carries (`response.created`, `.completed`, …). */
export function seeResponse(trace: OperationTrace, value: object): void {
  const { object, response } = value as { object?: unknown; response?: unknown }
  if (object === 'response') trace.response(value as Response)
  else if (typeof response === 'object' && response !== null) trace.response(response as Response)
}
