import { lastValueFrom, toArray, type Observable } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { finalResponse } from '../../src/operators/finalResponse.js'
import { outputText } from '../../src/operators/outputText.js'
import { parsedOutput } from '../../src/operators/parsedOutput.js'
import { runTools$, type ToolLoopEvent } from '../../src/runTools$.js'
import type { Response } from '../../src/validation/response.js'
import type { ResponseRequest } from '../../src/validation/responseRequest.js'
import { fakeClient } from '../helpers/client.js'
import { answering, call, calling, stream, toolLoop } from '../helpers/toolLoop.js'

// The answer of a tool loop is its last response, as a model behaves: it
// often writes a sentence before it calls a tool.

const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }
const ask: ResponseRequest = { model: 'm', input: 'Weather in Paris?', tools: [weather] }
const Style = v.object({ prompt: v.string(), mood: v.string() })
const json = '{"prompt":"Paris in the rain","mood":"calm"}'
const get_weather = () => ({ temperature: 21 })

/** Runs the loop through `operator` against scripted responses: its values, or its error. */
async function through<T>(operator: (source: ReturnType<typeof runTools$>) => Observable<T>, scripts = [calling('resp_A', [call('call_1')], { preamble: 'Let me pick a style. ' }), answering('resp_B', json)]) {
  const { client } = fakeClient((req) => stream(scripts[req.n - 1] as Record<string, unknown>[]))
  return lastValueFrom(operator(runTools$(client, ask, { get_weather })).pipe(toArray())).catch((error: unknown) => ({ error }))
}

describe('runTools$: the answer is the last response', () => {
  it('parsedOutput reads the JSON of the round that calls no tool, though the first round wrote text before its call', async () => {
    expect(await through((s) => s.pipe(parsedOutput(Style)))).toEqual([{ prompt: 'Paris in the rain', mood: 'calm' }])
  })

  it('outputText gives the last round’s text; { responses: "all" } joins every round’s text', async () => {
    expect(await through((s) => s.pipe(outputText()))).toEqual([json])
    expect(await through((s) => s.pipe(outputText({ responses: 'all' })))).toEqual([`Let me pick a style. \n\n${json}`])
  })

  it('finalResponse waits for the loop: both requests are sent, the tool’s output among them, and the value is the last response', async () => {
    const [final] = (await through((s) => s.pipe(finalResponse()))) as Response[]
    expect(final!.id).toBe('resp_B')
    const { gw, o } = toolLoop([calling('resp_A', [call('call_1')]), answering('resp_B', 'Sunny')], { get_weather }, ask)
    await o.done
    expect(gw.requests).toHaveLength(2)
    expect((gw.request(2).json as { input: unknown }).input).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: '{"temperature":21}' }])
  })

  it('marks every event with its round, so a UI can show each round’s text', async () => {
    const { o } = toolLoop([calling('resp_A', [call('call_1')], { preamble: 'Let me pick a style. ' }), answering('resp_B', json)], { get_weather }, ask)
    const events = (await o.done).values as ToolLoopEvent[]
    expect(events.map((e) => [e.type, e.round])).toEqual([
      ['response.created', 1],
      ['response.output_text.delta', 1],
      ['response.output_item.done', 1],
      ['response.completed', 1],
      ['response.created', 2],
      ['response.output_text.delta', 2],
      ['response.completed', 2],
    ])
  })

  it('a single response reads as before: outputText of a stream that never restarts', async () => {
    expect(await through((s) => s.pipe(outputText()), [answering('resp_A', 'Sunny, 21 °C')])).toEqual(['Sunny, 21 °C'])
  })

  it('refuses an unknown outputText option before anything is read', () => {
    expect(() => outputText({ responses: 'first' as 'all' })).toThrow(/responses: must be 'last' or 'all'/)
  })
})
