import { Observable } from 'rxjs'
import { asGatewayError, type GatewayError } from './errors/GatewayError.js'
import { redactError, scrubText } from './errors/redact.js'
import { reportLater } from './callHook.js'
import { safeTrace } from './safeTrace.js'
import type { OperationInfo, OperationOutcome, OperationTrace, Telemetry } from './telemetryTypes.js'
import type { Response } from './validation/response.js'

export type { AttemptSpec, AttemptTrace, AttemptTracer } from './transport/types.js'
export type { OperationInfo, OperationOutcome, OperationTrace, Telemetry } from './telemetryTypes.js'

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
