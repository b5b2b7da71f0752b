import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { errorType, targetOf } from '../../src/otel/attemptSpan.js'
import { finishReasons } from '../../src/otel/finishReasons.js'
import { inputMessages, outputMessages, taskInput } from '../../src/otel/messages.js'
import { SCOPE_VERSION } from '../../src/otel/openTelemetry.js'
import type { Response } from '../../src/validation/response.js'

const same = (text: string) => text

describe('finishReasons', () => {
  const output = (type: string) => [{ type, id: 'x', call_id: 'c', name: 'f', arguments: '{}', status: 'completed' }] as unknown as Response['output']
  it.each([
    [{ status: 'completed' }, ['stop']],
    [{ status: 'completed', output: output('function_call') }, ['tool_call']],
    [{ status: 'completed', output: output('custom_tool_call') }, ['tool_call']],
    [{ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, ['length']],
    [{ status: 'incomplete', incomplete_details: { reason: 'content_filter' } }, ['content_filter']],
    [{ status: 'incomplete' }, ['incomplete']],
    [{ status: 'failed' }, ['error']],
    [{ status: 'cancelled' }, ['cancelled']],
    [{ status: 'queued' }, undefined],
    [{ status: 'in_progress' }, undefined],
  ] as const)('%j → %j', (response, reasons) => {
    expect(finishReasons(response as unknown as Response)).toEqual(reasons)
  })
})

describe('messages', () => {
  it('maps a conversation of the Responses API to GenAI input messages', () => {
    expect(
      inputMessages([
        { role: 'system', content: 'Be brief' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'https://x.test/a.png' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }] },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'rainy' },
        { type: 'item_reference', id: 'r1' },
      ]),
    ).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Weather?' }, { type: 'uri', modality: 'image', uri: 'https://x.test/a.png' }, { type: 'input_image' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'rainy' }] },
      { role: 'assistant', parts: [{ type: 'item_reference' }] },
    ])
    expect(inputMessages('hi')).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }])
    expect(inputMessages(undefined)).toEqual([])
  })

  it('maps a response output to one assistant message: text, refusal, reasoning summary, function call', () => {
    const output = [
      { type: 'reasoning', id: 'r', summary: [{ type: 'summary_text', text: 'Thinking' }] },
      { type: 'message', id: 'm', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }, { type: 'refusal', refusal: 'No' }] },
      { type: 'function_call', id: 'f', call_id: 'c2', name: 'f', arguments: 'not json' },
    ] as unknown as Response['output']
    expect(outputMessages({ output }, 'tool_call')).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'Thinking' },
          { type: 'text', content: 'Hi' },
          { type: 'text', content: 'No' },
          { type: 'tool_call', id: 'c2', name: 'f', arguments: 'not json' },
        ],
        finish_reason: 'tool_call',
      },
    ])
  })

  it("maps a task body to a user message: the prompt first, each …_url as a uri of that modality, other fields left out", () => {
    expect(taskInput({ image_url: 'https://x.test/a.png', prompt: 'in watercolour', size: '1024*1024', audio_url: 'https://x.test/a.wav' })).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'in watercolour' },
          { type: 'uri', modality: 'image', uri: 'https://x.test/a.png' },
          { type: 'uri', modality: 'audio', uri: 'https://x.test/a.wav' },
        ],
      },
    ])
  })
})

describe('targetOf and errorType', () => {
  it('keeps scheme, host, port and path of a URL: never its query, fragment, user or password', () => {
    expect(targetOf('https://user:secret@gw.test:8443/v1/responses/r1?stream=true&starting_after=3#x', same)).toEqual({ full: 'https://gw.test:8443/v1/responses/r1', address: 'gw.test', port: 8443 })
    expect(targetOf('http://[::1]/p', same)).toEqual({ full: 'http://[::1]/p', address: '::1', port: 80 })
    expect(targetOf('/api/rxgate/v1?x=1', same)).toEqual({ full: '/api/rxgate/v1' })
    expect(targetOf('https://gw.test/tasks/abc', (t) => t.replace('abc', '[redacted]')).full).toBe('https://gw.test/tasks/[redacted]')
  })

  it("names an error by its class, anything else _OTHER", () => {
    expect([errorType(new TypeError('x')), errorType({ name: 'a b' }), errorType('boom'), errorType(undefined)]).toEqual(['TypeError', '_OTHER', '_OTHER', '_OTHER'])
  })
})

describe('the telemetry option', () => {
  it('refuses something that is not a Telemetry', () => {
    expect(() => createClient({ baseUrl: 'https://gw.test', apiKey: 'k', telemetry: {} as never })).toThrow(/telemetry: must have an operation method/)
    expect(() => createClient({ baseUrl: 'https://gw.test', apiKey: 'k', telemetry: 'otel' as never })).toThrow(/telemetry: must be an object/)
  })

  it("the instrumentation scope's version is the package's", () => {
    expect(SCOPE_VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
  })
})
