import { Observable, Subject } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { TimeoutError } from '../src/errors/TimeoutError.js'
import { ToolCallError } from '../src/errors/ToolCallError.js'
import { ToolRoundsExceededError } from '../src/errors/ToolRoundsExceededError.js'
import { runTools$, type RunToolsOptions } from '../src/runTools$.js'
import type { ToolContext, ToolHandlers } from '../src/toolAnswer$.js'
import type { ResponseRequest } from '../src/validation/responseRequest.js'
import type { ResponseStreamEvent } from '../src/validation/streamEvents.js'
import { settle } from './helpers/clock.js'
import { observe } from './helpers/collect.js'
import { never, sse, type SeenRequest } from './helpers/fakeTransport.js'
import { frame } from './helpers/fixtures.js'
import { fakeClient, onClock } from './helpers/client.js'
import { answering, call, calling, stream, toolLoop, type Script } from './helpers/toolLoop.js'

vi.setConfig({ testTimeout: 5_000 })

const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }
const ask: ResponseRequest = { model: 'm', input: 'Weather in Paris?', tools: [weather] }

/** A gateway answering the n-th request with the n-th script. */
function loop(scripts: Script[], tools: ToolHandlers, body: ResponseRequest = ask, options?: RunToolsOptions) {
  return toolLoop(scripts, tools, body, options)
}

const sent = (req: SeenRequest) => req.json as Record<string, unknown>
const types = (events: unknown[]) => (events as ResponseStreamEvent[]).map((e) => e.type)

describe('runTools$: the loop', () => {
  it('runs the handler of each call, sends the outputs back continuing the response, and emits both responses’ events in order', async () => {
    const seen: [unknown, ToolContext][] = []
    const get_weather = (args: unknown, context: ToolContext) => (seen.push([args, context]), { temperature: 21 })
    const { gw, o } = loop([calling('resp_A', [call('call_1')]), answering('resp_B', 'Sunny')], { get_weather })
    const { values, error, completed } = await o.done
    expect(error).toBeUndefined()
    expect(completed).toBe(true)
    expect(types(values)).toEqual(['response.created', 'response.output_item.done', 'response.completed', 'response.created', 'response.output_text.delta', 'response.completed'])
    expect(seen).toHaveLength(1)
    expect(seen[0]![0]).toEqual({ city: 'Paris' })
    expect(seen[0]![1]).toMatchObject({ name: 'get_weather', callId: 'call_1', itemId: 'fc_call_1', round: 1 })
    expect(gw.requests).toHaveLength(2)
    expect(sent(gw.request(1))).toEqual({ ...ask, stream: true })
    expect(sent(gw.request(2))).toEqual({
      ...ask,
      stream: true,
      input: [{ type: 'function_call_output', call_id: 'call_1', output: '{"temperature":21}' }],
      previous_response_id: 'resp_A',
    })
  })

  it('completes after one response when it calls no tool', async () => {
    const get_weather = vi.fn()
    const { gw, o } = loop([answering('resp_A', 'Hello')], { get_weather })
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(types(values)).toEqual(['response.created', 'response.output_text.delta', 'response.completed'])
    expect(get_weather).not.toHaveBeenCalled()
    expect(gw.requests).toHaveLength(1)
  })

  it('sends strings as they are and anything else as JSON, from values, Promises and Observables (their last value)', async () => {
    const outputs: Record<string, (args: unknown, context: ToolContext) => unknown> = {
      a: () => 'sunny',
      b: () => ({ t: 21 }),
      c: () => undefined,
      d: () => Promise.resolve('rain'),
      e: () => new Observable((s) => (s.next('first'), s.next('last'), s.complete())),
      f: () => [1, 'two'],
    }
    const calls = Object.keys(outputs).map((name, i) => call(`call_${i}`, {}, name))
    const { gw, o } = loop([calling('resp_A', calls), answering('resp_B', 'ok')], outputs)
    expect((await o.done).completed).toBe(true)
    expect((sent(gw.request(2)).input as { output: string }[]).map((i) => i.output)).toEqual(['sunny', '{"t":21}', 'null', 'rain', 'last', '[1,"two"]'])
  })

  it('waits for every handler of a response before sending the next one, then sends their outputs in the order of the calls', async () => {
    const slow = new Subject<string>()
    const tools = { get_weather: () => 'fast', get_time: () => slow }
    const { gw, clock, o } = loop([calling('resp_A', [call('call_1', {}, 'get_time'), call('call_2')]), answering('resp_B', 'ok')], tools)
    await clock.runAll()
    expect(gw.requests).toHaveLength(1)
    slow.next('noon')
    slow.complete()
    expect((await o.done).completed).toBe(true)
    expect(sent(gw.request(2)).input).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: 'noon' },
      { type: 'function_call_output', call_id: 'call_2', output: 'fast' },
    ])
  })

  it('sends the next response only once the stream has ended, even when every handler answered before', async () => {
    const { gw, o } = loop([() => ({ ...sse(undefined), body: 'fed' }), answering('resp_B', 'ok')], { get_weather: () => 'sunny' })
    await settle()
    const [created, item, completed] = calling('resp_A', [call('call_1')])
    gw.request(1).fed!.push(frame(created!) + frame(item!))
    await settle()
    expect(o.values).toHaveLength(2) // the call is done and answered, the stream still open
    expect(gw.requests).toHaveLength(1)
    gw.request(1).fed!.push(frame(completed!))
    gw.request(1).fed!.end()
    expect((await o.done).completed).toBe(true)
    expect(gw.requests).toHaveLength(2)
  })

  it('continues the response named by the final event when the stream had no other lifecycle event', async () => {
    const { gw, o } = loop([calling('resp_Z', [call('call_1')], { items: false, created: false }), answering('resp_B', 'ok')], { get_weather: () => 'x' })
    expect((await o.done).completed).toBe(true)
    expect(sent(gw.request(2))).toMatchObject({ previous_response_id: 'resp_Z', input: [{ type: 'function_call_output', call_id: 'call_1', output: 'x' }] })
  })

  it('answers the calls of an incomplete response too, continuing it', async () => {
    const { gw, o } = loop([calling('resp_I', [call('call_1')], { created: false, terminal: 'response.incomplete' }), answering('resp_B', 'ok')], { get_weather: () => 'x' })
    expect((await o.done).completed).toBe(true)
    expect(sent(gw.request(2))).toMatchObject({ previous_response_id: 'resp_I', input: [{ type: 'function_call_output', call_id: 'call_1', output: 'x' }] })
  })

  it('tells each handler its round: 1 for the first response, 2 for the next', async () => {
    const rounds: number[] = []
    const get_weather = (_: unknown, context: ToolContext) => (rounds.push(context.round), 'x')
    const { o } = loop([calling('resp_A', [call('call_1')]), calling('resp_B', [call('call_2')]), answering('resp_C', 'ok')], { get_weather })
    expect((await o.done).completed).toBe(true)
    expect(rounds).toEqual([1, 2])
  })
})

describe('runTools$: maxRounds', () => {
  it('stops with ToolRoundsExceededError when the maxRounds-th response still calls tools, running none of its calls', async () => {
    const rounds: number[] = []
    const get_weather = (_: unknown, context: ToolContext) => (rounds.push(context.round), 'x')
    const { gw, o } = loop([calling('resp_A', [call('call_1')]), calling('resp_B', [call('call_2'), call('call_3', {}, 'get_time')])], { get_weather }, ask, { maxRounds: 2 })
    const { error } = await o.done
    expect(error).toBeInstanceOf(ToolRoundsExceededError)
    expect(error).toMatchObject({ maxRounds: 2, responseId: 'resp_B', pendingCalls: ['get_weather', 'get_time'] })
    expect((error as Error).message).toBe('The model still called tools (get_weather, get_time) after 2 responses, the last resp_B; the loop stopped. Raise maxRounds if the task needs more rounds.')
    expect(rounds).toEqual([1])
    expect(gw.requests).toHaveLength(2)
  })
})

describe('runTools$: tool_choice after the first response', () => {
  it.each([
    ['"required"', 'required', 'auto'],
    ['one function', { type: 'function', name: 'get_weather' }, 'auto'],
    ['"auto"', 'auto', 'auto'],
    ['"none"', 'none', 'none'],
    ['allowed_tools', { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] }, { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] }],
  ])('a tool_choice of %s becomes %j (a forced choice is relaxed, so the loop can end)', async (_, choice, next) => {
    const body = { ...ask, tool_choice: choice } as ResponseRequest
    const { gw, o } = loop([calling('resp_A', [call('call_1')]), answering('resp_B', 'ok')], { get_weather: () => 'x' }, body)
    expect((await o.done).completed).toBe(true)
    expect(sent(gw.request(1)).tool_choice).toEqual(choice)
    expect(sent(gw.request(2)).tool_choice).toEqual(next)
  })

  it('sends no tool_choice after the first response when the body had none', async () => {
    const { gw, o } = loop([calling('resp_A', [call('call_1')]), answering('resp_B', 'ok')], { get_weather: () => 'x' })
    expect((await o.done).completed).toBe(true)
    expect('tool_choice' in sent(gw.request(2))).toBe(false)
  })
})

describe("runTools$: failures with onToolError: 'throw'", () => {
  const throwing: RunToolsOptions = { onToolError: 'throw' }
  it('ends in ToolCallError (unknown-tool) for a call without a handler, and runs no other call of that response', async () => {
    const get_weather = vi.fn(() => 'x')
    const { gw, o } = loop([calling('resp_A', [call('call_1', {}, 'get_time'), call('call_2')], { items: false })], { get_weather }, ask, throwing)
    const { error } = await o.done
    expect(error).toBeInstanceOf(ToolCallError)
    expect(error).toMatchObject({ reason: 'unknown-tool', toolName: 'get_time', callId: 'call_1' })
    expect(get_weather).not.toHaveBeenCalled()
    expect(gw.requests).toHaveLength(1)
  })

  it('does not take an inherited property of the handlers object for a handler', async () => {
    const { o } = loop([calling('resp_A', [call('call_1', {}, 'toString')])], { get_weather: () => 'x' }, ask, throwing)
    expect((await o.done).error).toMatchObject({ name: 'ToolCallError', reason: 'unknown-tool', toolName: 'toString' })
  })

  it('ends in ToolCallError (handler-failed) with the handler’s error as cause, sending nothing more', async () => {
    const offline = new Error('offline')
    const { gw, o } = loop([calling('resp_A', [call('call_1')])], { get_weather: () => Promise.reject(offline) }, ask, throwing)
    const { error } = await o.done
    expect(error).toBeInstanceOf(ToolCallError)
    expect(error).toMatchObject({ reason: 'handler-failed', toolName: 'get_weather', cause: offline })
    expect(gw.requests).toHaveLength(1)
  })

  it('ends in ValidationError for arguments that are not JSON, running no handler', async () => {
    const get_weather = vi.fn(() => 'x')
    const bad = { ...call('call_1'), arguments: '{"city": "Par' }
    const { o } = loop([calling('resp_A', [bad])], { get_weather }, ask, throwing)
    const { error } = await o.done
    expect(error).toMatchObject({ name: 'ValidationError' })
    expect((error as Error).message).toMatch(/^Unexpected function call "get_weather" arguments from the gateway: arguments: is not JSON/)
    expect(get_weather).not.toHaveBeenCalled()
  })

  it('applies deadlineMs to each response: a second response that hangs ends in TimeoutError deadlineMs after it was sent', async () => {
    const { gw, clock, o } = loop([calling('resp_A', [call('call_1')]), () => never()], { get_weather: () => 'x' }, ask, { deadlineMs: 5_000 })
    await clock.run(0)
    expect(gw.requests).toHaveLength(2)
    await clock.run(4_999)
    expect(o.error).toBeUndefined()
    await clock.run(1)
    expect(o.error).toBeInstanceOf(TimeoutError)
    expect(o.error).toMatchObject({ reason: 'deadline' })
    await settle()
    expect(gw.request(2).aborted).toBe(true)
  })
})

describe('runTools$: unsubscribing', () => {
  it('cancels the running handlers (their Observable and their signal) and sends no next response', async () => {
    const teardown = vi.fn()
    let signal: AbortSignal | undefined
    const get_weather = (_: unknown, context: ToolContext) => ((signal = context.signal), new Observable(() => teardown))
    const { gw, clock, o } = loop([calling('resp_A', [call('call_1')])], { get_weather })
    await clock.runAll()
    expect(signal?.aborted).toBe(false)
    o.subscription.unsubscribe()
    expect(teardown).toHaveBeenCalledOnce()
    expect(signal!.aborted).toBe(true)
    await clock.runAll()
    expect(gw.requests).toHaveLength(1)
  })

  it('aborts the request in flight of a later response', async () => {
    const { gw, clock, o } = loop([calling('resp_A', [call('call_1')]), () => never()], { get_weather: () => 'x' })
    await clock.run(0)
    expect(gw.requests).toHaveLength(2)
    o.subscription.unsubscribe()
    await settle()
    expect(gw.request(2).aborted).toBe(true)
  })
})

describe('runTools$: checks before anything is sent', () => {
  it.each([
    ['maxRounds 0', ask, { get_weather: () => 1 }, { maxRounds: 0 }, 'Invalid tool loop: maxRounds: must be an integer of at least 1 (got 0). Nothing was sent.'],
    ['maxRounds 1.5', ask, { get_weather: () => 1 }, { maxRounds: 1.5 }, 'Invalid tool loop: maxRounds: must be an integer of at least 1 (got 1.5). Nothing was sent.'],
    ['tools null', ask, null, {}, 'Invalid tool loop: tools: must be tools made by tool(), or an object of handlers by function name. Nothing was sent.'],
    ['tools a function name', ask, 'get_weather', {}, 'Invalid tool loop: tools: must be tools made by tool(), or an object of handlers by function name. Nothing was sent.'],
    ['tools missing', ask, undefined, {}, 'Invalid tool loop: tools: must be tools made by tool(), or an object of handlers by function name. Nothing was sent.'],
    ['store: false', { ...ask, store: false }, { get_weather: () => 1 }, {}, 'Invalid tool loop: store: must not be false: each response of the loop is continued with previous_response_id. Nothing was sent.'],
    [
      'all three',
      { ...ask, store: false },
      null,
      { maxRounds: -1 },
      'Invalid tool loop: maxRounds: must be an integer of at least 1 (got -1); tools: must be tools made by tool(), or an object of handlers by function name; store: must not be false: each response of the loop is continued with previous_response_id. Nothing was sent.',
    ],
  ])('refuses %s with InvalidRequestError and its message, sending nothing', async (_, body, tools, options, message) => {
    const { gw, o } = loop([], tools as unknown as ToolHandlers, body as ResponseRequest, options)
    const { error } = await o.done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toBe(message)
    expect(gw.requests).toHaveLength(0)
  })

  it('refuses a missing body (plain JavaScript) as the response request it is, sending nothing', async () => {
    const { gw, client, clock } = fakeClient(() => stream(answering('resp_A', 'ok')))
    const o = onClock(clock, observe(runTools$(client, undefined as unknown as ResponseRequest, { get_weather: () => 1 })))
    const { error } = await o.done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toBe('Invalid response request: model: is required. Nothing was sent.')
    expect(gw.requests).toHaveLength(0)
  })

  it('checks nothing and sends nothing until subscribed', async () => {
    const { gw, client, clock } = fakeClient(() => stream(answering('resp_A', 'ok')))
    const loop$ = runTools$(client, ask, { get_weather: () => 1 })
    const refused$ = runTools$(client, ask, null as unknown as ToolHandlers)
    await clock.runAll()
    expect(gw.requests).toHaveLength(0)
    expect((await onClock(clock, observe(refused$)).done).error).toBeInstanceOf(InvalidRequestError)
    expect((await onClock(clock, observe(loop$)).done).completed).toBe(true)
    expect(gw.requests).toHaveLength(1)
  })
})
