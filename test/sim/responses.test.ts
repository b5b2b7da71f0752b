import { describe, expect, it } from 'vitest'
import { call, json, RESPONSES, simulator } from './helpers.js'

describe('simulator: POST /vendors/vendor-a/v1/responses (JSON)', () => {
  it('returns a complete Response object with a message item, output_text and spec usage', async () => {
    const sim = await simulator()
    const { status, body } = await json(sim, RESPONSES, { body: { model: 'gpt-test', input: 'A fox in the snow', instructions: 'Be brief' } })
    expect(status).toBe(200)
    expect(body).toMatchObject({ object: 'response', model: 'gpt-test', status: 'completed', error: null, instructions: 'Be brief' })
    expect(body.id).toMatch(/^resp_[\da-f]+$/)
    expect(Number.isInteger(body.created_at) && Math.abs(body.created_at - Date.now() / 1000) < 5).toBe(true)
    const [item] = body.output
    expect(item).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' })
    expect(item.id).toMatch(/^msg_/)
    expect(item.content).toEqual([{ type: 'output_text', text: body.output_text, annotations: [], logprobs: [] }])
    const words = body.output_text.split(/\s+/).length
    expect(body.usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: words,
      total_tokens: 7 + words,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    })
  })

  it('gives the same text for the same input, reads structured message input, and differs for other input', async () => {
    const sim = await simulator()
    const a = await json(sim, RESPONSES, { body: { model: 'm', input: 'Tell me about tides' } })
    const b = await json(sim, RESPONSES, { body: { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Tell me about tides' }] }] } })
    const c = await json(sim, RESPONSES, { body: { model: 'm', input: 'Something else entirely' } })
    expect(b.body.output_text).toBe(a.body.output_text)
    expect(c.body.output_text).not.toBe(a.body.output_text)
  })

  it('uses input_tokens/output_tokens with usageShape openai', async () => {
    const sim = await simulator({ usageShape: 'openai' })
    const { body } = await json(sim, RESPONSES, { body: { model: 'm', input: 'one two three' } })
    expect(body.usage).toMatchObject({ input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } })
    expect(body.usage.total_tokens).toBe(3 + body.usage.output_tokens)
    expect(body.usage).not.toHaveProperty('prompt_tokens')
  })

  it('fails a response whose input or instructions hold [fail]: 200 with status failed and an error', async () => {
    const sim = await simulator()
    for (const body of [{ model: 'm', input: 'please [fail] now' }, { model: 'o3', input: 'hi', instructions: '[fail]' }]) {
      const reply = await json(sim, RESPONSES, { body })
      expect(reply.status).toBe(200)
      expect(reply.body.status).toBe('failed')
      expect(reply.body.error).toMatchObject({ code: 'server_error', message: expect.stringContaining('[fail]') })
      expect(reply.body.output).toEqual([])
    }
  })

  it('cuts the output to max_output_tokens and reports incomplete', async () => {
    const sim = await simulator()
    const { body } = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi there, how are tides made?', max_output_tokens: 5 } })
    expect(body.status).toBe('incomplete')
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' })
    expect(body.usage.completion_tokens).toBe(5)
    expect(body.output_text.trim().split(/\s+/)).toHaveLength(5)
    expect(body.output[0].status).toBe('incomplete')
  })

  it('echoes the request settings in the Response object', async () => {
    const sim = await simulator()
    const settings = { temperature: 0.3, top_p: 0.9, metadata: { run: '7' }, truncation: 'auto', user: 'u1', tool_choice: 'none', max_output_tokens: 99 }
    const { body } = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi', ...settings } })
    expect(body).toMatchObject(settings)
  })

  it('stores responses for retrieval, chains previous_response_id, and 404s an unknown or unstored id', async () => {
    const sim = await simulator()
    const first = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })
    const read = await json(sim, `${RESPONSES}/${first.body.id}`)
    expect(read.body).toEqual(first.body)
    const next = await json(sim, RESPONSES, { body: { model: 'm', input: 'more', previous_response_id: first.body.id } })
    expect(next.body.previous_response_id).toBe(first.body.id)
    const unstored = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi', store: false } })
    expect((await call(sim, `${RESPONSES}/${unstored.body.id}`)).status).toBe(404)
    const unknown = await json(sim, `${RESPONSES}/resp_unknown`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('not_found')
    expect(sim.responses.map((r) => r.id)).toEqual([first.body.id, next.body.id, unstored.body.id])
    expect(sim.responses.every((r) => r.delivered && !r.stream && !r.background)).toBe(true)
  })
})
