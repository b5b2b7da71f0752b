import { firstValueFrom } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { createGateway } from '../../src/gateway.js'
import { jsonSchemaFormat } from '../../src/jsonSchemaFormat.js'
import { finalResponse } from '../../src/operators/finalResponse.js'
import { parsedOutput } from '../../src/operators/parsedOutput.js'
import { runTools$ } from '../../src/runTools$.js'
import { tool } from '../../src/tools/tool.js'
import { frame } from '../helpers/fixtures.js'
import { startServer } from '../helpers/server.js'
import { answering, call, calling } from '../helpers/toolLoop.js'

// The bot's main path as a user writes it, against a gateway on 127.0.0.1
// that answers as real models do: a sentence, then the tool call, and in
// the first round arguments that miss a field, corrected once told.

const Style = v.object({ prompt: v.string(), mood: v.string() })
const KEY = 'sk-test-realmodel-4b1d9a7e2c'

async function gateway() {
  const rounds = [
    calling('resp_1', [call('call_1', { subject: 'Paris' }, 'pick_style')], { preamble: 'Let me pick a style. ' }),
    calling('resp_2', [call('call_2', { subject: 'Paris', light: 'dusk' }, 'pick_style')], { preamble: 'Sorry, again with the light. ' }),
    answering('resp_3', '{"prompt":"Paris at dusk, film grain","mood":"calm"}'),
  ]
  return startServer((req, res) => {
    const round = rounds.shift()
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.end(round ? round.map((e) => frame(e)).join('') : '')
  })
}

describe('a bot on a gateway whose model writes before it calls, and errs once', () => {
  it('tools, then a structured answer: the errors go back, the loop goes on, the answer parses', async () => {
    const server = await gateway()
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    const seen: unknown[] = []
    const pickStyle = tool({
      name: 'pick_style',
      parameters: v.object({ subject: v.string(), light: v.picklist(['dawn', 'noon', 'dusk']) }),
      execute: (args) => (seen.push(args), { style: `${args.light} light, film grain` }),
    })
    const body = { model: 'gpt-4.1-mini', input: 'A video prompt about Paris', text: { format: jsonSchemaFormat(Style, 'style') } }
    const style = await firstValueFrom(runTools$(client, body, [pickStyle]).pipe(parsedOutput(Style)))
    expect(style).toEqual({ prompt: 'Paris at dusk, film grain', mood: 'calm' })
    expect(seen).toEqual([{ subject: 'Paris', light: 'dusk' }])
    const sent = server.requests.map((r) => r.json as { input: unknown; previous_response_id?: string; tools: unknown[] })
    expect(sent).toHaveLength(3)
    expect(sent[0]!.tools).toEqual([expect.objectContaining({ type: 'function', name: 'pick_style', strict: true })])
    expect(sent[1]!.previous_response_id).toBe('resp_1')
    expect(sent[1]!.input).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: expect.stringMatching(/^Error: the arguments of "pick_style" are invalid: light: /) }])
    expect(sent[2]!.input).toEqual([{ type: 'function_call_output', call_id: 'call_2', output: '{"style":"dusk light, film grain"}' }])
  })

  it('through the gateway object, finalResponse of the loop is the answer, after every round was sent', async () => {
    const server = await gateway()
    const gw = createGateway({ baseUrl: server.url, apiKey: KEY })
    const pickStyle = tool({ name: 'pick_style', parameters: v.object({ subject: v.string(), light: v.string() }), execute: () => 'ok' })
    const final = await firstValueFrom(gw.runTools$({ model: 'gpt-4.1-mini', input: 'x' }, [pickStyle]).pipe(finalResponse()))
    // Round 1's arguments miss `light`: told, the model calls again; its third response is the answer.
    expect(final.id).toBe('resp_3')
    expect(server.requests).toHaveLength(3)
  })
})
