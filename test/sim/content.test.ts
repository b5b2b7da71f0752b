import { describe, expect, it } from 'vitest'
import { json, RESPONSES, simulator, stream } from './helpers.js'
import { wellFormed } from './wellFormed.js'

const BOT_INSTRUCTIONS =
  'You write prompts for a text-to-video model: one paragraph, under 60 words, describing one continuous shot with subject, setting, light, and camera movement.'

describe('simulator: responses follow the input', () => {
  it('writes a one-paragraph cinematic video prompt about the topic, streamed and whole alike', async () => {
    const sim = await simulator()
    const body = { model: 'gpt-4o', instructions: BOT_INSTRUCTIONS, input: 'A short video about: a lighthouse' }
    const final = wellFormed(await stream(sim, body))
    const text: string = final.output_text
    expect(text).toContain('a lighthouse')
    expect(text).toContain('—')
    expect(text).not.toContain('\n')
    const words = text.split(/\s+/).length
    expect(words).toBeGreaterThanOrEqual(20)
    expect(words).toBeLessThan(60)
    expect((await json(sim, RESPONSES, { body })).body.output_text).toBe(text)
    const other = (await json(sim, RESPONSES, { body: { ...body, input: 'A short video about: two otters playing' } })).body.output_text
    expect(other).toContain('two otters playing')
  })

  it.each(['Say hi', 'hi', 'Hello!', 'good morning'])('greets back when the input is %j', async (input) => {
    const sim = await simulator()
    expect((await json(sim, RESPONSES, { body: { model: 'm', input } })).body.output_text).toBe('Hi there! How can I help you today?')
  })

  it('answers other input briefly, referring to it, the same way every time', async () => {
    const sim = await simulator()
    const ask = async (input: string) => (await json(sim, RESPONSES, { body: { model: 'm', input } })).body.output_text as string
    const answer = await ask('Why do penguins huddle together in winter?')
    expect(answer).toContain('penguins')
    expect(answer).toContain('huddle')
    expect(answer.split(/\s+/).length).toBeLessThan(40)
    expect(await ask('Why do penguins huddle together in winter?')).toBe(answer)
    expect(await ask('Summarise the history of glass')).toMatch(/history|glass/)
  })

  it('refuses on [refuse]: a refusal content part, streamed with refusal events', async () => {
    const sim = await simulator()
    const events = await stream(sim, { input: 'Do the thing [refuse]' })
    const final = wellFormed(events)
    expect(final.output[0].content).toEqual([{ type: 'refusal', refusal: expect.stringMatching(/can't help/) }])
    expect(final.output_text).toBe('')
    const types = events.map((f) => f.event)
    expect(types).toContain('response.refusal.delta')
    expect(types).toContain('response.refusal.done')
    expect(types).not.toContain('response.output_text.delta')
    expect(events.find((f) => f.event === 'response.content_part.added')!.json.part).toEqual({ type: 'refusal', refusal: '' })
  })

  it.each(['o3-mini', 'o1', 'gpt-5', 'gpt-5-mini'])('answers %s with a reasoning item first, summary streamed, reasoning tokens counted', async (model) => {
    const sim = await simulator()
    const events = await stream(sim, { model, input: 'Say hi', reasoning: { effort: 'low', summary: 'auto' } })
    const final = wellFormed(events)
    expect(final.output.map((i: any) => i.type)).toEqual(['reasoning', 'message'])
    expect(final.output[0].id).toMatch(/^rs_/)
    expect(final.output[0].summary).toHaveLength(2)
    const deltas = events.filter((f) => f.event === 'response.reasoning_summary_text.delta')
    expect(new Set(deltas.map((f) => f.json.summary_index))).toEqual(new Set([0, 1]))
    expect(events.filter((f) => f.event === 'response.reasoning_summary_part.added').map((f) => f.json.summary_index)).toEqual([0, 1])
    expect(final.usage.completion_tokens_details.reasoning_tokens).toBe(deltas.length)
    const textDeltas = events.filter((f) => f.event === 'response.output_text.delta').length
    expect(final.usage.completion_tokens).toBe(deltas.length + textDeltas)
    expect(final.output_text).toBe('Hi there! How can I help you today?')
  })

  it('counts reasoning tokens against max_output_tokens (a small budget leaves no message)', async () => {
    const sim = await simulator({ usageShape: 'openai' })
    const final = wellFormed(await stream(sim, { model: 'o4-mini', input: 'Say hi', max_output_tokens: 4 }))
    expect(final.status).toBe('incomplete')
    expect(final.output.map((i: any) => i.type)).toEqual(['reasoning'])
    expect(final.usage).toMatchObject({ output_tokens: 4, output_tokens_details: { reasoning_tokens: 4 } })
  })

  it('gives non-reasoning models no reasoning item', async () => {
    const sim = await simulator()
    for (const model of ['gpt-4o', 'omni', 'o-mini']) {
      expect((await json(sim, RESPONSES, { body: { model, input: 'Say hi' } })).body.output.map((i: any) => i.type)).toEqual(['message'])
    }
  })
})
