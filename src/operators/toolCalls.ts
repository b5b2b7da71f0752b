import { Observable, type OperatorFunction } from 'rxjs'
import { ValidationError } from '../errors/ValidationError.js'
import type { FunctionCallItem } from '../validation/outputItems.js'
import { isTerminalStatus, type Response } from '../validation/response.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/** A completed function call, its arguments parsed from the JSON the model wrote. */
export interface ToolCall {
  /** The function's name, as offered in `tools`. */
  readonly name: string
  /** The id to answer with: `{ type: 'function_call_output', call_id: callId, output }`. */
  readonly callId: string
  /** The arguments, parsed (`{}` when the model wrote none). */
  readonly arguments: unknown
  /** The output item's id, when the server gave one. */
  readonly itemId: string | undefined
}

/** A call as the tool loop reads it: arguments that are not JSON are kept as an error for the model, not thrown. */
export interface CollectedCall extends ToolCall {
  /** Why the arguments could not be read (`arguments` is then the raw text). */
  readonly argumentsError?: ValidationError
}

/**
 * Each completed function call of a response, once, as soon as it is
 * complete: from a stream, at its `response.output_item.done` (so calls run
 * in parallel can start before the response ends), or from the final
 * Response's `output` when the stream had no item events; from Response
 * values, the calls of the first one with a final status.
 *
 * Arguments that are not JSON (a truncated `incomplete` response, a model
 * that wrote prose) end the stream in `ValidationError`, with the raw text
 * as `payload`; empty arguments read as `{}`. A call without `call_id` could
 * not be answered, and ends it the same way.
 *
 * @example
 * ```ts
 * const weatherTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }
 * responses$(client, { model: 'gpt-4.1-mini', input: 'Weather in Paris? Use get_weather', tools: [weatherTool], stream: true })
 *   .pipe(toolCalls())
 *   .subscribe((call) => console.log(call.name, call.arguments))
 * // Output: get_weather { city: 'Paris' }
 * ```
 */
export function toolCalls(): OperatorFunction<ResponseStreamEvent | Response, ToolCall> {
  return (source) =>
    new Observable<ToolCall>((subscriber) => {
      const collect = callCollector()
      return source.subscribe({
        next: (value) => {
          let calls: ToolCall[]
          try {
            calls = collect(value)
          } catch (err) {
            return subscriber.error(err)
          }
          for (const call of calls) subscriber.next(call)
        },
        error: (err) => subscriber.error(err),
        complete: () => subscriber.complete(),
      })
    })
}

/**
 * A stateful reader of function calls, shared by `toolCalls()` and the tool
 * loop: give it every value of one response; it returns the calls that value
 * completes, each call once. Throws `ValidationError` for a call without
 * `call_id`, and for arguments that are not JSON unless `keepBadArguments`
 * (the loop sends those back to the model).
 */
export function callCollector(keepBadArguments = false): (value: ResponseStreamEvent | Response) => CollectedCall[] {
  const seen = new Set<string>()
  const fresh = (items: readonly unknown[]) => {
    const calls: CollectedCall[] = []
    for (const item of items as { type?: unknown }[]) {
      if (item.type !== 'function_call') continue
      const call = readCall(item as FunctionCallItem, keepBadArguments)
      if (seen.has(call.callId)) continue
      seen.add(call.callId)
      calls.push(call)
    }
    return calls
  }
  return (value) => {
    if ((value as { object?: unknown }).object === 'response') {
      const response = value as Response
      return isTerminalStatus(response.status) ? fresh(response.output ?? []) : []
    }
    const event = value as ResponseStreamEvent
    if (event.type === 'response.output_item.done') return fresh([event.item])
    if (event.type === 'response.completed' || event.type === 'response.incomplete') return fresh(event.response.output ?? [])
    return []
  }
}

function readCall(item: FunctionCallItem, keepBadArguments: boolean): CollectedCall {
  try {
    return toToolCall(item)
  } catch (err) {
    if (!keepBadArguments || !item.call_id) throw err
    return { name: item.name, callId: item.call_id, arguments: item.arguments, itemId: item.id, argumentsError: err as ValidationError }
  }
}

/** A function call item as a {@link ToolCall}, its arguments parsed. */
export function toToolCall(item: FunctionCallItem): ToolCall {
  const where = `function call ${JSON.stringify(item.name)}`
  if (!item.call_id) throw new ValidationError(where, [{ path: 'call_id', message: 'is missing, so the call cannot be answered' }], item)
  let args: unknown = {}
  if (item.arguments.trim() !== '') {
    try {
      args = JSON.parse(item.arguments)
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err)
      throw new ValidationError(`${where} arguments`, [{ path: 'arguments', message: `is not JSON (${why})` }], item.arguments)
    }
  }
  return { name: item.name, callId: item.call_id, arguments: args, itemId: item.id }
}
