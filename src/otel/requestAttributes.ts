import type { Attributes } from '@opentelemetry/api'
import type { OperationInfo } from '../telemetry.js'

/**
 * The attributes a call's span starts with beyond the common ones: what
 * was asked (stream, output type, settings) and the id already known.
 *
 * | call | attributes |
 * |---|---|
 * | `chat` | `gen_ai.output.type` (`text`, or `json` with a JSON `text.format`), `gen_ai.request.stream` (streams only), `gen_ai.request.max_tokens` (`max_output_tokens`), `gen_ai.request.temperature`, `gen_ai.request.top_p` |
 * | `generate_content` | `gen_ai.output.type` (`video` or `image`), `gen_ai.request.seed`, and for `task$` the task's id as `gen_ai.response.id` and `rxgate.task.id` |
 * | `retrieve_response`, `cancel_response` | `gen_ai.response.id`, and `gen_ai.request.stream` for a streamed read |
 *
 * @example
 * ```ts
 * requestAttributes({ operation: 'chat', request: { model: 'm', input: 'hi', temperature: 0.2 }, … })
 * // { 'gen_ai.output.type': 'text', 'gen_ai.request.temperature': 0.2 }
 * ```
 */
export function requestAttributes(info: OperationInfo): Attributes {
  const attributes: Attributes = {}
  const request = (info.request ?? {}) as Readonly<Record<string, unknown>>
  if (info.stream) attributes['gen_ai.request.stream'] = true
  if (info.operation === 'chat') {
    const format = (request.text as { format?: { type?: unknown } } | undefined)?.format?.type
    attributes['gen_ai.output.type'] = format === 'json_schema' || format === 'json_object' ? 'json' : 'text'
    number(attributes, 'gen_ai.request.max_tokens', request.max_output_tokens)
    number(attributes, 'gen_ai.request.temperature', request.temperature)
    number(attributes, 'gen_ai.request.top_p', request.top_p)
  } else if (info.operation === 'generate_content') {
    if (info.endpoint) attributes['gen_ai.output.type'] = info.endpoint.kind
    number(attributes, 'gen_ai.request.seed', request.seed)
  }
  if (info.id !== undefined) {
    const id = info.redact(info.id)
    attributes['gen_ai.response.id'] = id
    if (info.operation === 'generate_content') attributes['rxgate.task.id'] = id
  }
  return attributes
}

function number(attributes: Attributes, name: string, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) attributes[name] = value
}
