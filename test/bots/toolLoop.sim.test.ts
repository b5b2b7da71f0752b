import { NEVER, Observable } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isToolCallError, type ToolCallError } from '../../src/errors/ToolCallError.js'
import { isToolRoundsExceededError, type ToolRoundsExceededError } from '../../src/errors/ToolRoundsExceededError.js'
import { outputText } from '../../src/operators/outputText.js'
import { textDeltas } from '../../src/operators/textDeltas.js'
import { runTools$ } from '../../src/runTools$.js'
import type { ToolContext } from '../../src/toolAnswer$.js'
import { all, failure } from './replay.js'
import { clientOf, creations, functionTool, simulator, until } from './sim.js'

const weather = functionTool('get_weather', { city: { type: 'string' } })
const ask = { model: 'gpt-4.1-mini', input: 'What is the weather in Paris? Use get_weather.', tools: [weather] }
const ANSWER = 'Here is what I found — get_weather returned temperature 21 and unit celsius. Anything else?'

describe('runTools$ against the simulator', () => {
  it('runs a two-round loop: the call, the handler, its output sent back, the answer', async () => {
    const sim = await simulator()
    const handler = vi.fn((_args: { city: string }, _context: ToolContext) => Promise.resolve({ temperature: 21, unit: 'celsius' }))
    const events = await all(runTools$(clientOf(sim), ask, { get_weather: handler }))
    expect(handler).toHaveBeenCalledOnce()
    expect(handler.mock.calls[0]![0]).toEqual({ city: 'Paris' })
    expect(handler.mock.calls[0]![1]).toMatchObject({ name: 'get_weather', round: 1, callId: expect.stringMatching(/^call_/) })
    // Both responses' events, in order: a call, then the answer, which used the output.
    expect(events.filter((e) => e.type === 'response.completed')).toHaveLength(2)
    expect(events.findIndex((e) => e.type === 'response.function_call_arguments.done')).toBeLessThan(events.findIndex((e) => e.type === 'response.output_text.delta'))
    expect(await all(runTools$(clientOf(sim), ask, { get_weather: () => ({ temperature: 21, unit: 'celsius' }) }).pipe(outputText()))).toEqual([ANSWER])
    expect(creations(sim)).toBe(4)
  })

  it('takes handler outputs as values, Promises or Observables (their last value), strings as they are', async () => {
    const sim = await simulator()
    const outputs = [
      () => 'sunny',
      () => new Observable<string>((s) => (s.next('first'), s.next('rain'), s.complete())),
    ]
    const answers: string[] = []
    for (const get_weather of outputs) answers.push((await all(runTools$(clientOf(sim), ask, { get_weather }).pipe(textDeltas()))).join(''))
    expect(answers).toEqual(['Here is what I found — get_weather returned “sunny”. Anything else?', 'Here is what I found — get_weather returned “rain”. Anything else?'])
  })

  it('unsubscribing while a handler runs cancels the handler and aborts the request', async () => {
    const sim = await simulator({ streamDelayMs: 40 }) // the stream stays open after the call's item is done
    const teardown = vi.fn()
    let signal: AbortSignal | undefined
    const get_weather = (_: unknown, context: ToolContext) => {
      signal = context.signal
      return new Observable(() => teardown)
    }
    const subscription = runTools$(clientOf(sim), ask, { get_weather }).subscribe()
    await until(() => signal !== undefined)
    subscription.unsubscribe()
    expect(teardown).toHaveBeenCalledOnce()
    expect(signal!.aborted).toBe(true)
    await until(() => sim.connectionsClosedByClient === 1)
    expect(sim.requests.filter((r) => r.aborted)).toHaveLength(1)
    expect(creations(sim)).toBe(1) // no second round was sent
  })

  it("with onToolError: 'throw', ends in ToolCallError (unknown-tool) for a call without a handler, running none", async () => {
    const sim = await simulator()
    const other = vi.fn()
    const body = { ...ask, input: 'Use get_time and get_weather for Paris', tools: [weather, functionTool('get_time', { city: { type: 'string' } })] }
    const err = (await failure(runTools$(clientOf(sim), body, { get_weather: other }, { onToolError: 'throw' }))) as ToolCallError
    expect(isToolCallError(err)).toBe(true)
    expect([err.reason, err.toolName]).toEqual(['unknown-tool', 'get_time'])
    expect(err.callId).toMatch(/^call_/)
  })

  it("with onToolError: 'throw', ends in ToolCallError (handler-failed) with the handler’s error as cause", async () => {
    const sim = await simulator()
    const offline = new Error('weather service offline')
    for (const get_weather of [() => { throw offline }, () => Promise.reject(offline), () => new Observable(() => { throw offline })]) {
      const err = (await failure(runTools$(clientOf(sim), ask, { get_weather }, { onToolError: 'throw' }))) as ToolCallError
      expect([err.name, err.reason, err.toolName, err.cause]).toEqual(['ToolCallError', 'handler-failed', 'get_weather', offline])
    }
  })

  it('stops at maxRounds when the last response still calls a tool, without running it', async () => {
    const sim = await simulator()
    const get_weather = vi.fn(() => NEVER)
    const err = (await failure(runTools$(clientOf(sim), ask, { get_weather }, { maxRounds: 1 }))) as ToolRoundsExceededError
    expect(isToolRoundsExceededError(err)).toBe(true)
    expect([err.maxRounds, err.pendingCalls]).toEqual([1, ['get_weather']])
    expect(err.responseId).toBe(sim.responses[0]!.id)
    expect(get_weather).not.toHaveBeenCalled()
  })

  it('relaxes a forced tool_choice after the first response, so the loop ends', async () => {
    const sim = await simulator()
    const body = { ...ask, input: 'Weather in Paris?', tool_choice: { type: 'function', name: 'get_weather' } }
    expect(await all(runTools$(clientOf(sim), body, { get_weather: () => ({ temperature: 21, unit: 'celsius' }) }).pipe(outputText()))).toEqual([ANSWER])
  })

  it.each([
    ['maxRounds 0', {}, { maxRounds: 0 }, 'maxRounds'],
    ['store: false', { store: false }, {}, 'store'],
  ])('refuses %s with InvalidRequestError, sending nothing', async (_, over, options, path) => {
    const sim = await simulator()
    const err = await failure(runTools$(clientOf(sim), { ...ask, ...over }, { get_weather: () => 1 }, options))
    expect(isInvalidRequestError(err) && err.issues.map((i) => i.path)).toEqual([path])
    expect(creations(sim)).toBe(0)
  })
})
