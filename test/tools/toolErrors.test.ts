import { map, Subject, take } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { isToolCallError } from '../../src/errors/ToolCallError.js'
import type { RunToolsOptions } from '../../src/runTools$.js'
import type { ToolContext, ToolHandlers } from '../../src/toolAnswer$.js'
import { tool, type ToolDefinition } from '../../src/tools/tool.js'
import type { ResponseRequest } from '../../src/validation/responseRequest.js'
import { KEY } from '../helpers/fixtures.js'
import { until } from '../bots/sim.js'
import { answering, call, calling, toolLoop, type Script } from '../helpers/toolLoop.js'

// A failed call goes back to the model as the call's output, and the loop
// goes on: the model reads the error and calls again, as real models do.

const ask: ResponseRequest = { model: 'm', input: 'Weather in Paris?' }
const getWeather = (execute: (args: { city: string }, context: ToolContext) => unknown) =>
  tool({ name: 'get_weather', description: 'The weather in a city now', parameters: v.object({ city: v.pipe(v.string(), v.trim(), v.minLength(1)) }), execute })

/** The outputs the n-th request sent back. */
function outputsOf(gw: ReturnType<typeof toolLoop>['gw'], n: number): unknown[] {
  return ((gw.request(n).json as { input: { output: string }[] }).input ?? []).map((item) => item.output)
}

function run(scripts: Script[], tools: ToolHandlers | readonly ToolDefinition[], options?: RunToolsOptions) {
  return toolLoop(scripts, tools, ask, options)
}

describe('runTools$: failed calls go back to the model', () => {
  it('arguments that break the schema: the model is told which field, execute never sees them, and its corrected call runs', async () => {
    const execute = vi.fn(({ city }: { city: string }) => ({ city, temperature: 21 }))
    const { gw, o } = run([calling('resp_A', [call('call_1', { city: 3 })]), calling('resp_B', [call('call_2', { city: '  Paris ' })]), answering('resp_C', 'Sunny')], [getWeather(execute)])
    const { error, completed } = await o.done
    expect(error).toBeUndefined()
    expect(completed).toBe(true)
    expect(outputsOf(gw, 2)).toEqual(['Error: the arguments of "get_weather" are invalid: city: Invalid type: Expected string but received 3. Call it again with arguments that match its parameters.'])
    // execute gets the schema's output (trimmed), once.
    expect(execute.mock.calls.map(([args]) => args)).toEqual([{ city: 'Paris' }])
    expect(outputsOf(gw, 3)).toEqual(['{"city":"Paris","temperature":21}'])
  })

  it('arguments that are not JSON, an unknown tool and a tool that throws: each call’s error is its output, the others run', async () => {
    const calls = [call('call_1', '{"city": "Par'), call('call_2', {}, 'get_time'), call('call_3'), call('call_4', { city: 'Oslo' })]
    const execute = ({ city }: { city: string }) => {
      if (city === 'Oslo') throw new Error('weather service offline')
      return 'Sunny'
    }
    const { gw, o } = run([calling('resp_A', calls), answering('resp_B', 'Done')], [getWeather(execute)])
    expect((await o.done).completed).toBe(true)
    const [notJson, unknown, ok, threw] = outputsOf(gw, 2) as string[]
    expect(notJson).toMatch(/^Error: the arguments of "get_weather" are invalid: arguments: is not JSON/)
    expect(unknown).toBe('Error: there is no tool named "get_time". The tools are: get_weather.')
    expect(ok).toBe('Sunny')
    expect(threw).toBe('Error: "get_weather" failed: weather service offline')
  })

  it('never sends a stack or the key: a handler’s message is masked and cut short', async () => {
    const execute = () => {
      throw new Error(`upstream refused token ${KEY}\n${'x'.repeat(2_000)}`)
    }
    const { gw, o } = run([calling('resp_A', [call('call_1')]), answering('resp_B', 'Sorry')], [getWeather(execute)])
    await o.done
    const [output] = outputsOf(gw, 2) as string[]
    expect(output).not.toContain(KEY)
    expect(output).not.toContain(KEY.slice(0, 12))
    expect(output).toContain('[redacted]')
    expect(output).not.toMatch(/\n\s+at /)
    expect(output!.length).toBeLessThanOrEqual(500)
  })

  it('masks the whole key only, so a model naming tools after guesses learns nothing of the key from the errors', async () => {
    // A model steered by text it read calls tools named after the last 7 characters of the key's known prefix
    // and each possible next one: were every 8-character stretch masked, the right guess would come back masked.
    const guesses = [...new Set(KEY)].map((c) => KEY.slice(1, 8) + c)
    const calls = guesses.map((name, i) => call(`call_${i}`, {}, name))
    const { gw, o } = run([calling('resp_A', calls), answering('resp_B', 'Done')], [getWeather(() => 'Sunny')], { maxToolErrors: guesses.length + 1 })
    expect((await o.done).completed).toBe(true)
    expect(outputsOf(gw, 2)).toEqual(guesses.map((name) => `Error: there is no tool named "${name}". The tools are: get_weather.`))
  })

  it('ends in ToolCallError after maxToolErrors failed calls in a row, sending nothing more; a success resets the count', async () => {
    const failing = () => Promise.reject(new Error('offline'))
    const scripts = (n: number) => Array.from({ length: n }, (_, i) => calling(`resp_${i}`, [call(`call_${i}`)]))
    const three = run([...scripts(3), answering('resp_end', 'x')], { get_weather: failing }, { maxToolErrors: 2 })
    const { error } = await three.o.done
    expect(isToolCallError(error) && [error.reason, error.callId]).toEqual(['handler-failed', 'call_2'])
    expect(three.gw.requests).toHaveLength(3)
    let n = 0
    const everyOther = () => (n++ % 2 === 0 ? Promise.reject(new Error('offline')) : 'ok')
    const alternating = run([...scripts(5), answering('resp_end', 'x')], { get_weather: everyOther }, { maxToolErrors: 1 })
    expect((await alternating.o.done).completed).toBe(true)
    expect(alternating.gw.requests).toHaveLength(6)
  })

  it('onToolError: "throw" ends the loop at the first failure, cancelling the other running calls', async () => {
    const aborted: boolean[] = []
    const slow = (_: unknown, { signal }: ToolContext) => new Promise(() => signal.addEventListener('abort', () => aborted.push(true)))
    const { gw, o } = run([calling('resp_A', [call('call_1', {}, 'slow'), call('call_2', { city: 7 })])], [getWeather(() => 'x'), tool({ name: 'slow', parameters: v.object({}), execute: slow })], { onToolError: 'throw' })
    const { error } = await o.done
    expect(isToolCallError(error) && error.reason).toBe('invalid-arguments')
    expect(aborted).toEqual([true])
    expect(gw.requests).toHaveLength(1)
  })
})

describe('runTools$: stopping and waiting', () => {
  it('stopWhen ends the loop after a response it accepts, cancelling its running tools and sending nothing more', async () => {
    let signal: AbortSignal | undefined
    const pending = (_: unknown, context: ToolContext) => ((signal = context.signal), new Promise(() => {}))
    const stopWhen = vi.fn((response: { id: string }, round: number) => round === 1 && response.id === 'resp_A')
    const { gw, o } = run([calling('resp_A', [call('call_1')]), answering('resp_B', 'x')], { get_weather: pending }, { stopWhen })
    const { error, completed } = await o.done
    expect([error, completed]).toEqual([undefined, true])
    expect(signal?.aborted).toBe(true)
    expect(gw.requests).toHaveLength(1)
  })

  it('a tool that returns an Observable waits for it (a person’s approval) before the loop goes on', async () => {
    const approvals = new Subject<boolean>()
    let asked = false
    const execute = ({ city }: { city: string }) => ((asked = true), approvals.pipe(take(1), map((ok) => (ok ? `Approved: ${city}` : 'The user declined'))))
    const book = tool({ name: 'book', parameters: v.object({ city: v.string() }), execute })
    const { gw, o } = run([calling('resp_A', [call('call_1', { city: 'Paris' }, 'book')]), answering('resp_B', 'Booked')], [book])
    await until(() => asked)
    expect(gw.requests).toHaveLength(1)
    expect(o.completed).toBe(false)
    approvals.next(true)
    expect((await o.done).completed).toBe(true)
    expect(outputsOf(gw, 2)).toEqual(['Approved: Paris'])
  })
})
