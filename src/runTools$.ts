import { Observable, Subscription } from 'rxjs'
import { guard$, type Client } from './client.js'
import { InvalidRequestError, type RequestIssue } from './errors/InvalidRequestError.js'
import { ToolCallError } from './errors/ToolCallError.js'
import { ToolRoundsExceededError } from './errors/ToolRoundsExceededError.js'
import { ValidationError } from './errors/ValidationError.js'
import { callCollector, type ToolCall } from './operators/toolCalls.js'
import { responses$ } from './responses$.js'
import { answer$, type ToolHandlers } from './toolAnswer$.js'
import type { ResponseRequest } from './validation/responseRequest.js'
import type { ResponseStreamEvent } from './validation/streamEvents.js'

/** Options of {@link runTools$}. */
export interface RunToolsOptions {
  /** Most responses in the loop (default 10); a last one that still calls tools ends in `ToolRoundsExceededError`. */
  readonly maxRounds?: number
  /** Deadline of each response, as `responses$`'s `deadlineMs`. */
  readonly deadlineMs?: number
}

/**
 * A tool loop: streams a response (`responses$` with `stream: true`), runs
 * the handler of each function call it makes, as soon as the call is
 * complete (calls of one response run in parallel), sends their outputs back
 * as `function_call_output` items with `previous_response_id`, and repeats
 * until a response calls no tool. Emits the events of every response in
 * order, so `textDeltas()`, `outputText()` and `refusal()` read the whole
 * conversation; it completes after the last one.
 *
 * - A handler returns a value, a Promise or an Observable (its last value);
 *   strings are sent as they are, anything else as JSON. Its second argument
 *   holds the call and a `signal` aborted when the loop is unsubscribed.
 * - A call of a tool without a handler: `ToolCallError` (`unknown-tool`).
 *   A handler that throws, rejects or errors: `ToolCallError`
 *   (`handler-failed`, the error as `cause`). Arguments that are not JSON:
 *   `ValidationError`. A response still calling tools at `maxRounds`:
 *   `ToolRoundsExceededError`. Any of these cancels the running handlers and
 *   the request in flight.
 * - A forced `tool_choice` (`required`, or one tool) applies to the first
 *   response only, later ones get `auto`: forced, the model would call tools
 *   forever. Each response is stored to be continued, so `store: false` is refused.
 * - Unsubscribing aborts the request in flight and cancels running handlers.
 *
 * @example
 * ```ts
 * const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }]
 * runTools$(client, { model: 'gpt-4.1-mini', input: 'Use get_weather: weather in Paris?', tools }, {
 *   get_weather: ({ city }: { city: string }) => ({ city, temperature: 21 }),
 * }).pipe(outputText()).subscribe(console.log)
 * // Output (the simulator): Here is what I found — get_weather returned city Paris and temperature 21. Anything else?
 * ```
 */
export function runTools$(client: Client, body: ResponseRequest, tools: ToolHandlers, options: RunToolsOptions = {}): Observable<ResponseStreamEvent> {
  return guard$(client, () => {
    options ??= {}
    const maxRounds = options.maxRounds ?? 10
    const issues: RequestIssue[] = []
    if (!(Number.isInteger(maxRounds) && maxRounds >= 1)) issues.push({ path: 'maxRounds', message: `must be an integer of at least 1 (got ${maxRounds})` })
    if (typeof tools !== 'object' || tools === null) issues.push({ path: 'tools', message: 'must be an object of handlers by function name' })
    if (body?.store === false) issues.push({ path: 'store', message: 'must not be false: each response of the loop is continued with previous_response_id' })
    if (issues.length > 0) throw new InvalidRequestError(issues, 'tool loop')
    const deadline = options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }

    const round$ = (n: number, request: ResponseRequest): Observable<ResponseStreamEvent> =>
      new Observable<ResponseStreamEvent>((subscriber) => {
        const work = new Subscription()
        const collect = callCollector()
        const answered: { call: ToolCall; output?: string }[] = []
        const over: ToolCall[] = []
        let responseId: string | undefined
        let streamed = false
        let moved = false // the round has ended: completed, failed, or handed on to the next
        const fail = (err: unknown) => subscriber.error(err)
        const proceed = () => {
          if (moved || !streamed || answered.some((a) => a.output === undefined)) return
          moved = true
          if (over.length > 0) return fail(new ToolRoundsExceededError(maxRounds, responseId, over.map((c) => c.name)))
          if (answered.length === 0) return subscriber.complete()
          if (responseId === undefined) {
            return fail(new ValidationError('response stream', [{ path: 'response.id', message: 'was in no event, so the response cannot be continued' }], undefined))
          }
          const next = followUp(request, responseId, answered as Required<(typeof answered)[number]>[])
          work.add(round$(n + 1, next).subscribe({ next: (e) => subscriber.next(e), error: fail, complete: () => subscriber.complete() }))
        }
        const start = (call: ToolCall) => {
          if (n >= maxRounds) return void over.push(call)
          const handler = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined
          if (typeof handler !== 'function') return fail(new ToolCallError('unknown-tool', call))
          const entry: { call: ToolCall; output?: string } = { call }
          answered.push(entry)
          work.add(answer$(handler, call, n).subscribe({ next: (output) => ((entry.output = output), proceed()), error: fail }))
        }
        work.add(
          responses$(client, { ...request, stream: true }, deadline).subscribe({
            next: (event) => {
              subscriber.next(event)
              if ('response' in event && isLifecycle(event.type)) responseId = (event.response as { id: string }).id
              let calls: ToolCall[]
              try {
                calls = collect(event)
              } catch (err) {
                return fail(err)
              }
              for (const call of calls) if (!subscriber.closed) start(call)
            },
            error: fail,
            complete: () => ((streamed = true), proceed()),
          }),
        )
        return work
      })
    return round$(1, body)
  })
}

function isLifecycle(type: unknown): boolean {
  return type === 'response.created' || type === 'response.in_progress' || type === 'response.completed' || type === 'response.incomplete'
}

/** The next request: the same body, its input the outputs, continuing the last response; a forced tool choice relaxed. */
function followUp(request: ResponseRequest, previousId: string, answered: readonly { call: ToolCall; output: string }[]): ResponseRequest {
  const choice = request.tool_choice
  const forced = choice === 'required' || (typeof choice === 'object' && choice !== null && (choice as { type?: unknown }).type !== 'allowed_tools')
  return {
    ...request,
    input: answered.map(({ call, output }) => ({ type: 'function_call_output', call_id: call.callId, output })),
    previous_response_id: previousId,
    ...(forced ? { tool_choice: 'auto' as const } : {}),
  }
}
