import { metrics, trace, type Meter, type Tracer } from '@opentelemetry/api'
import type { OperationInfo, OperationTrace, Telemetry } from '../telemetry.js'
import { instrumentsOf } from './instruments.js'
import { OperationSpan } from './operationSpan.js'

/** The instrumentation scope of rxgate's spans and metrics. */
export const SCOPE_NAME = 'rxgate'
/** rxgate's version, the scope's version (kept equal to package.json's by a test). */
export const SCOPE_VERSION = '0.1.0'

/** The headers of W3C Trace Context: all a gateway is told unless `sendBaggage`. */
const TRACE_CONTEXT: readonly string[] = ['traceparent', 'tracestate']
const WITH_BAGGAGE: readonly string[] = [...TRACE_CONTEXT, 'baggage']

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** The tracer of the spans. @defaultValue the global one, `trace.getTracer('rxgate', version)`, read at each call */
  readonly tracer?: Tracer
  /** The meter of the metrics. @defaultValue the global one, `metrics.getMeter('rxgate', version)`, read at each call */
  readonly meter?: Meter
  /**
   * Record prompts and outputs (`gen_ai.system_instructions`,
   * `gen_ai.input.messages`, `gen_ai.output.messages`, task result URLs) on
   * the spans. They may hold personal data: off unless asked. URLs are
   * recorded without their query, whose signature would let anyone fetch
   * the file.
   *
   * @defaultValue `false`
   */
  readonly captureContent?: boolean
  /**
   * `gen_ai.provider.name` of every span and metric.
   *
   * @defaultValue the vendor the call's path names (`/vendors/{vendor}/…`), else `openai` for responses (they speak its Responses API)
   */
  readonly providerName?: string
  /**
   * Also send the `baggage` header the global propagator writes. Baggage may
   * hold the app's own entries (a user or tenant id), and the gateway is
   * another party: only `traceparent` and `tracestate` go unless asked.
   *
   * @defaultValue `false`
   */
  readonly sendBaggage?: boolean
}

/**
 * OpenTelemetry for a client (its `telemetry` option), following the GenAI
 * semantic conventions:
 *
 * - a client span per call: `chat {model}` for `responses$` (streamed,
 *   single or background; each round of `runTools$` is one),
 *   `generate_content {model}` for a media task created and followed (or
 *   followed by `task$`), with its status changes as `rxgate.task.status`
 *   events; `retrieve_response` and `cancel_response` for those reads. Its
 *   parent is the context active when the Observable is subscribed;
 * - an HTTP client span per try of each request (every retry, every poll),
 *   child of the call's span, whose W3C `traceparent` (and `tracestate`) the
 *   request carries, through the global propagator;
 * - the metrics `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`.
 *
 * Prompts and outputs are recorded only with `captureContent: true`; the
 * API key never is (every text from the gateway or the caller is masked).
 * With no `tracer` or `meter`, the global ones at the time of each call are
 * used, so a provider registered after the client is made still works.
 *
 * @example
 * ```ts
 * import { createClient } from 'rxgate'
 * import { openTelemetry } from 'rxgate/otel'
 *
 * const client = createClient({ baseUrl, apiKey, telemetry: openTelemetry() })
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const { tracer, meter, captureContent = false, providerName, sendBaggage = false } = options ?? {}
  return {
    operation(info: OperationInfo): OperationTrace {
      return new OperationSpan(info, {
        tracer: tracer ?? trace.getTracer(SCOPE_NAME, SCOPE_VERSION),
        instruments: instrumentsOf(meter ?? metrics.getMeter(SCOPE_NAME, SCOPE_VERSION)),
        captureContent: captureContent === true,
        providerName,
        sent: sendBaggage === true ? WITH_BAGGAGE : TRACE_CONTEXT,
      })
    },
  }
}
