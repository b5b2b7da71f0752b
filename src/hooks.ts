import { asGatewayError, type GatewayError } from './errors/GatewayError.js'
import { redactError, scrubText } from './errors/redact.js'
import type { AbortSignalLike } from './transport/abort.js'
import { ABORTED, pathOnly } from './transport/exchange.js'
import type { Gate, Pass, RequestSpec } from './transport/types.js'
import { callHook } from './callHook.js'
import type { UsageEvent } from './usage.js'

/** One request as it leaves. A retry of the same call is a new request with `retry` > 0. */
export interface RequestEvent {
  /** Numbers the client's requests from 1, to pair each request with its response. */
  readonly id: number
  /** The request's method. */
  readonly method: 'GET' | 'POST'
  /** The path without its query (queries may hold ids; never keys). */
  readonly path: string
  /** Failures in a row before this try of the same call: 0 for the first. */
  readonly retry: number
  /** Epoch milliseconds when it left. */
  readonly startedAt: number
}

/** How one request ended. */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status, when a reply arrived. */
  readonly status: number | undefined
  /** From sending to the end of the reply's body (a stream's last event), in milliseconds. */
  readonly durationMs: number
  /** How it ended: `ok` (a reply, of any status, read to its end), `error` (see `error`), or `aborted` (its subscriber left). */
  readonly outcome: 'ok' | 'error' | 'aborted'
  /** The failure, masked of the key, when `outcome` is `'error'`. */
  readonly error?: GatewayError
}

/** Observers of a client's traffic, e.g. for logs, metrics and traces. They never see the key. */
export interface ClientHooks {
  /** A request is sent (after the budget, if any, let it go). */
  readonly onRequest?: (event: RequestEvent) => void
  /** A request ended: answered and read, failed, or abandoned by its subscriber. */
  readonly onResponse?: (event: ResponseEvent) => void
  /** A response this client created finished, with its token usage (see `usageOf` for the running total). */
  readonly onUsage?: (event: UsageEvent) => void
}

/**
 * A gate that tells `hooks` about every exchange, in front of `inner` (the
 * budget) when there is one. A hook that throws does not break the call: its
 * error is reported as an uncaught one, as RxJS does with observer errors.
 */
export function observedGate(hooks: ClientHooks, secret: string | undefined, inner: Gate | undefined): Gate {
  let ids = 0
  return {
    enter(spec: RequestSpec, signal: AbortSignalLike): Pass | Promise<Pass> {
      const admitted = inner ? inner.enter(spec, signal) : undefined
      const start = (pass: Pass | undefined): Pass => {
        // A path may hold an id the gateway chose (a task's), and so whatever the gateway echoed there.
        const path = secret ? scrubText(pathOnly(spec.path), secret) : pathOnly(spec.path)
        const request: RequestEvent = { id: ++ids, method: spec.method, path, retry: spec.retry ?? 0, startedAt: Date.now() }
        const started = performance.now()
        let status: number | undefined
        callHook(hooks.onRequest, request)
        return {
          answered(code) {
            status = code
            pass?.answered(code)
          },
          done(error) {
            pass?.done(error)
            const ended = { ...request, status, durationMs: performance.now() - started }
            if (error === undefined) callHook(hooks.onResponse, { ...ended, outcome: 'ok' })
            else if (error === ABORTED) callHook(hooks.onResponse, { ...ended, outcome: 'aborted' })
            else callHook(hooks.onResponse, { ...ended, outcome: 'error', error: redactError(asGatewayError(error), secret) })
          },
        }
      }
      return admitted instanceof Promise ? admitted.then(start) : start(admitted)
    },
  }
}
