import { callHook, reportLater } from './callHook.js'
import type { GatewayError } from './errors/GatewayError.js'
import type { TaskEvent } from './operators/pollTask.js'
import type { OperationOutcome, OperationTrace } from './telemetryTypes.js'
import type { AttemptSpec, AttemptTrace } from './transport/types.js'
import type { Response } from './validation/response.js'

/** The trace of a try whose tracer failed: it sends no header and is told nothing. */
const UNTRACED: AttemptTrace = { headers: {}, answered: () => undefined, done: () => undefined }

/**
 * `trace` behind a guard: whatever its methods throw, or the promises they
 * return reject with, is reported by `reportLater` and never reaches the
 * call. Without it a tracer's bug would become the request's failure (and a
 * creation could be sent again), or a throwing `end` would leave the
 * subscriber waiting for a completion that never comes.
 *
 * @example
 * ```ts
 * const trace = safeTrace(telemetry.operation(info))
 * trace.end('ok') // returns, whatever the telemetry does
 * ```
 */
export function safeTrace(trace: OperationTrace): OperationTrace {
  return {
    attempt: (spec: AttemptSpec, url: string) => safeAttempt(trace, spec, url),
    response: (response: Response) => callHook((r: Response) => trace.response(r), response),
    taskStatus: (event: TaskEvent) => callHook((e: TaskEvent) => trace.taskStatus(e), event),
    end: (outcome: OperationOutcome, error?: GatewayError) => callHook(() => trace.end(outcome, error), undefined),
  }
}

function safeAttempt(trace: OperationTrace, spec: AttemptSpec, url: string): AttemptTrace {
  let attempt: AttemptTrace
  let headers: Readonly<Record<string, string>>
  try {
    attempt = trace.attempt(spec, url)
    // Copied once, as strings: a getter or a value that throws later would fail the request itself.
    headers = Object.fromEntries(Object.entries(attempt.headers ?? {}).map(([name, value]) => [name, String(value)]))
  } catch (error) {
    reportLater(error)
    return UNTRACED
  }
  return {
    headers,
    answered: (status: number) => callHook((s: number) => attempt.answered(s), status),
    done: (error?: unknown) => callHook(() => attempt.done(error), undefined),
  }
}
