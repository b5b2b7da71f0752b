import { runTools$, type RunToolsOptions } from '../../src/runTools$.js'
import type { ToolHandlers } from '../../src/toolAnswer$.js'
import type { ToolDefinition } from '../../src/tools/tool.js'
import type { ResponseRequest } from '../../src/validation/responseRequest.js'
import { fakeClient, onClock } from './client.js'
import { observe } from './collect.js'
import { sse, type FakeReply, type SeenRequest } from './fakeTransport.js'
import { delta, frame, lifecycle } from './fixtures.js'

// Scripted tool-loop gateways: each request is answered with the next
// response's events, written as the Responses API streams them.

type Event = Record<string, unknown>

/** What the n-th request is answered with: events to stream, or a reply of its own. */
export type Script = Event[] | ((req: SeenRequest) => FakeReply | Promise<FakeReply>)

/** A finished function call item. */
export function call(callId: string, args: unknown = { city: 'Paris' }, name = 'get_weather'): Event {
  return { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args), status: 'completed' }
}

/**
 * A response that calls tools: created, each call's output_item.done, then
 * the terminal event carrying the calls. With `preamble`, the model first
 * writes that text in a message (as real models often do before a call).
 */
export function calling(id: string, calls: Event[], { items = true, created = true, terminal = 'response.completed', preamble = '' } = {}): Event[] {
  const events: Event[] = []
  if (created) events.push(lifecycle('response.created', 0, { id }))
  const message = { type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: preamble, annotations: [] }] }
  if (preamble) events.push(delta(events.length, preamble, message.id))
  if (items) calls.forEach((item, i) => events.push({ type: 'response.output_item.done', sequence_number: events.length, output_index: i + (preamble ? 1 : 0), item }))
  const output = preamble ? [message, ...calls] : calls
  events.push(lifecycle(terminal, events.length, { id, output, ...(preamble ? { output_text: preamble } : {}) }))
  return events
}

/** A response answering in text, calling no tool. */
export function answering(id: string, text: string): Event[] {
  return [lifecycle('response.created', 0, { id }), delta(1, text), lifecycle('response.completed', 2, { id, output_text: text })]
}

/** Events as one SSE reply. */
export const stream = (events: Event[]): FakeReply => sse(events.map((e) => frame(e)).join(''))

/** A tool loop against a gateway answering the n-th request with the n-th script, observed on the fake client's clock. */
export function toolLoop(scripts: Script[], tools: ToolHandlers | readonly ToolDefinition[], body: ResponseRequest, options?: RunToolsOptions) {
  const setup = fakeClient((req) => {
    const script = scripts[req.n - 1]
    if (script === undefined) throw new Error(`unexpected request ${req.n}`)
    return typeof script === 'function' ? script(req) : stream(script)
  })
  const o = onClock(setup.clock, observe(runTools$(setup.client, body, tools, options)))
  return { ...setup, o }
}
