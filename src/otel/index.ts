/**
 * OpenTelemetry built into rxgate: GenAI spans and metrics for every call,
 * an HTTP span and a W3C `traceparent` for every request. Needs the peer
 * dependency `@opentelemetry/api`; nothing else of rxgate imports it.
 *
 * @example
 * ```ts
 * import { createClient } from 'rxgate'
 * import { openTelemetry } from 'rxgate/otel'
 *
 * const client = createClient({ baseUrl, apiKey, telemetry: openTelemetry({ captureContent: false }) })
 * ```
 *
 * @module rxgate/otel
 */
export { openTelemetry, type OpenTelemetryOptions } from './openTelemetry.js'
export type { Telemetry, OperationInfo, OperationTrace, OperationOutcome, AttemptSpec, AttemptTrace, AttemptTracer } from '../telemetry.js'
