import { Observable, Subscription, throwError } from 'rxjs'
import { guard$, type Client } from './client.js'
import { InvalidRequestError, type RequestIssue } from './errors/InvalidRequestError.js'
import { ToolCallError } from './errors/ToolCallError.js'
import { ToolRoundsExceededError } from './errors/ToolRoundsExceededError.js'
import { ValidationError } from './errors/ValidationError.js'
import { callCollector, type CollectedCall, type ToolCall } from './operators/toolCalls.js'
import { responses$ } from './responses$.js'
import { answer$, type ToolHandlers } from './toolAnswer$.js'
import type { ToolDefinition } from './tools/tool.js'
import { toolErrorOutput } from './tools/toolError.js'
import { toolSet } from './tools/toolSet.js'
import type { Response } from './validation/response.js'
import type { ResponseRequest } from './validation/responseRequest.js'
import type { ResponseStreamEvent } from './validation/streamEvents.js'

/** Options of {@link runTools$}. */
export interface RunToolsOptions {
  /** Most responses in the loop; a last one that still calls tools ends in `ToolRoundsExceededError`. @defaultValue `10` */
  readonly maxRounds?: number
  /** Deadline of each response, as `responses$`'s `deadlineMs`. */
  readonly deadlineMs?: number
  /**
   * What a failed call does: `'model'` (default) sends the error to the
   * model as the call's output (a short `Error: …` text, never a stack or
   * the key) and the loop goes on, as the model can correct itself;
   * `'throw'` ends the loop in `ToolCallError` (or `ValidationError` for
   * arguments that are not JSON).
   *
   * @defaultValue `'model'`
   */
  readonly onToolError?: 'model' | 'throw'
  /** With `onToolError: 'model'`, how many failed calls in a row go back to the model; one more ends the loop in `ToolCallError`. @defaultValue `3` */
  readonly maxToolErrors?: number
  /**
   * Ends the loop after a response for which it returns true, even if that
   * response called tools (their running handlers are cancelled, their
   * outputs never sent). Given each finished response and its round.
   */
  readonly stopWhen?: (response: Response, round: number) => boolean
}

/** An event of a tool loop: a response's stream event, with the round (1 for the first response) it belongs to. */
export type ToolLoopEvent = ResponseStreamEvent & {
  /** The response of the loop the event belongs to: 1 for the first. */
  readonly round: number
}

/**
 * A tool loop: streams a response (`responses$` with `stream: true`), runs
 * the tool of each function call it makes, as soon as the call is complete
 * (calls of one response run in parallel), sends their outputs back as
 * `function_call_output` items with `previous_response_id`, and repeats
 * until a response calls no tool. Emits the events of every response in
 * order, each with its `round`; it completes after the last one.
 * `finalResponse()`, `outputText()`, `parsedOutput()` read the loop's answer:
 * the last response (text a model writes before calling a tool is not part
 * of it); `outputText({ responses: 'all' })` joins every round's text.
 *
 * - Tools: definitions made by `tool()` (the request's `tools` get their
 *   JSON Schemas; their arguments are validated before `execute`), or
 *   handlers by function name for tools the request offers itself.
 * - A tool returns a value, a Promise or an Observable (its last value, so
 *   it may wait for a person's approval); strings are sent as they are,
 *   anything else as JSON. Its second argument holds the call, its round,
 *   and a `signal` aborted when the loop is unsubscribed.
 * - A call of an unknown tool, arguments that are not JSON or break the
 *   schema, and a tool that throws, rejects or errors are sent back to the
 *   model (see `onToolError`, `maxToolErrors`); a response still calling
 *   tools at `maxRounds` ends in `ToolRoundsExceededError`. An error cancels
 *   the running tools and the request in flight.
 * - A forced `tool_choice` (`required`, or one tool) applies to the first
 *   response only, later ones get `auto`: forced, the model would call tools
 *   forever. Each response is stored to be continued, so `store: false` is refused.
 * - Unsubscribing aborts the request in flight and cancels running tools.
 *
 * @example
 * ```ts
 * const getWeather = tool({ name: 'get_weather', parameters: v.object({ city: v.string() }), execute: ({ city }) => ({ city, temperature: 21 }) })
 * runTools$(client, { model: 'gpt-4.1-mini', input: 'Use get_weather: weather in Paris?' }, [getWeather])
 *   .pipe(outputText())
 *   .subscribe(console.log)
 * // Output (the simulator): Here is what I found — get_weather returned city Paris and temperature 21. Anything else?
 * ```
 */
export function runTools$(client: Client, body: ResponseRequest, tools: ToolHandlers | readonly ToolDefinition[], options: RunToolsOptions = {}): Observable<ToolLoopEvent> {
  return guard$(client, () => {
    options ??= {}
    const { maxRounds = 10, onToolError = 'model', stopWhen } = options
    const maxToolErrors = onToolError === 'throw' ? 0 : (options.maxToolErrors ?? 3)
    const issues: RequestIssue[] = []
    if (!(Number.isInteger(maxRounds) && maxRounds >= 1)) issues.push({ path: 'maxRounds', message: `must be an integer of at least 1 (got ${maxRounds})` })
    if (onToolError !== 'model' && onToolError !== 'throw') issues.push({ path: 'onToolError', message: `must be 'model' or 'throw' (got ${JSON.stringify(onToolError)})` })
    if (!(Number.isInteger(maxToolErrors) && maxToolErrors >= 0)) issues.push({ path: 'maxToolErrors', message: `must be an integer of at least 0 (got ${maxToolErrors})` })
    if (stopWhen !== undefined && typeof stopWhen !== 'function') issues.push({ path: 'stopWhen', message: 'must be a function' })
    if (typeof tools !== 'object' || tools === null) issues.push({ path: 'tools', message: 'must be tools made by tool(), or an object of handlers by function name' })
    if (body?.store === false) issues.push({ path: 'store', message: 'must not be false: each response of the loop is continued with previous_response_id' })
    const set = issues.length === 0 ? toolSet(body, tools, issues) : undefined
    if (issues.length > 0 || !set) throw new InvalidRequestError(issues, 'tool loop')
    const deadline = options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }
    let failures = 0 // failed calls in a row, over the whole loop

    const round$ = (n: number, request: ResponseRequest): Observable<ToolLoopEvent> =>
      new Observable<ToolLoopEvent>((subscriber) => {
        const work = new Subscription()
        const running = new Subscription() // the tools of this round
        work.add(running)
        const collect = callCollector(onToolError === 'model')
        const answered: { call: ToolCall; output?: string }[] = []
        const over: ToolCall[] = []
        let responseId: string | undefined
        let streamed = false
        let stopped = false
        let moved = false // the round has ended: completed, failed, or handed on to the next
        const fail = (err: unknown) => subscriber.error(err)
        const proceed = () => {
          if (moved || !streamed || (!stopped && answered.some((a) => a.output === undefined))) return
          moved = true
          if (stopped) return subscriber.complete()
          if (over.length > 0) return fail(new ToolRoundsExceededError(maxRounds, responseId, over.map((c) => c.name)))
          if (answered.length === 0) return subscriber.complete()
          if (responseId === undefined) {
            return fail(new ValidationError('response stream', [{ path: 'response.id', message: 'was in no event, so the response cannot be continued' }], undefined))
          }
          const next = followUp(request, responseId, answered as Required<(typeof answered)[number]>[])
          work.add(round$(n + 1, next).subscribe({ next: (e) => subscriber.next(e), error: fail, complete: () => subscriber.complete() }))
        }
        const start = (call: CollectedCall) => {
          if (n >= maxRounds) return void over.push(call)
          const entry: { call: ToolCall; output?: string } = { call }
          answered.push(entry)
          const tool = set.find(call.name)
          const output$ = tool ? answer$(tool.handler, call, n, tool.parameters) : throwError(() => new ToolCallError('unknown-tool', call))
          running.add(
            output$.subscribe({
              next: (output) => ((failures = 0), (entry.output = output), proceed()),
              error: (err) => {
                if (!(err instanceof ToolCallError) || ++failures > maxToolErrors) return fail(err)
                entry.output = toolErrorOutput(err, set.names, client.secret)
                proceed()
              },
            }),
          )
        }
        const ended = (response: Response) => {
          if (!stopWhen?.(response, n)) return
          stopped = true
          running.unsubscribe()
        }
        work.add(
          responses$(client, { ...request, stream: true }, deadline).subscribe({
            next: (event) => {
              subscriber.next({ ...event, round: n } as ToolLoopEvent)
              if ('response' in event && isLifecycle(event.type)) responseId = (event.response as { id: string }).id
              let calls: CollectedCall[]
              try {
                calls = collect(event)
                if (event.type === 'response.completed' || event.type === 'response.incomplete') ended(event.response)
              } catch (err) {
                return fail(err)
              }
              for (const call of calls) if (!subscriber.closed && !stopped) start(call)
            },
            error: fail,
            complete: () => ((streamed = true), proceed()),
          }),
        )
        return work
      })
    return round$(1, set.body)
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
