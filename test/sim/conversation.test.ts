import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/sim/index.js'
import { json, RESPONSES, simulator, stream } from './helpers.js'

const ask = async (sim: Simulator, input: unknown, extra: Record<string, unknown> = {}) => (await json(sim, RESPONSES, { body: { model: 'gpt-4o', input, ...extra } })).body

describe('simulator: previous_response_id carries the conversation', () => {
  it('answers a question about what the user said in an earlier turn, and only with that turn continued', async () => {
    const sim = await simulator()
    const first = await ask(sim, 'My name is Ada')
    expect(first.output_text).toContain('Ada')
    const second = await ask(sim, 'What is my name?', { previous_response_id: first.id })
    expect(second.output_text).toContain('Ada')
    const third = await ask(sim, 'Tell me about tides', { previous_response_id: second.id })
    const fourth = await ask(sim, 'And who am I?', { previous_response_id: third.id })
    expect(fourth.output_text).toContain('Ada')

    const stranger = await ask(sim, 'What is my name?')
    expect(stranger.output_text).not.toContain('Ada')
    expect(stranger.output_text).toMatch(/name/)
    expect((await ask(sim, 'What is my name?', { previous_response_id: first.id })).output_text).toBe(second.output_text)
  })

  it('keeps the latest of two answers, reads facts from earlier messages of the input too, and streams the same text', async () => {
    const sim = await simulator()
    const first = await ask(sim, 'My favourite colour is green.')
    const second = await ask(sim, 'Actually, my favourite colour is teal.', { previous_response_id: first.id })
    const question = { input: "What's my favourite colour?", previous_response_id: second.id }
    const answer = await ask(sim, question.input, { previous_response_id: second.id })
    expect(answer.output_text).toContain('teal')
    expect(answer.output_text).not.toContain('green')
    const events = await stream(sim, question)
    expect(events.at(-1)!.json.response.output_text).toBe(answer.output_text)

    const inline = await ask(sim, [
      { role: 'user', content: 'I live in Lisbon.' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Noted.' }] },
      { role: 'user', content: 'Where do I live?' },
    ])
    expect(inline.output_text).toContain('Lisbon')
  })

  it('repeats what the user or the model said in the turn before', async () => {
    const sim = await simulator()
    const first = await ask(sim, 'Tell me about tides')
    const said = await ask(sim, 'What did I just ask?', { previous_response_id: first.id })
    expect(said.output_text).toContain('Tell me about tides')
    const replied = await ask(sim, 'What did you say?', { previous_response_id: first.id })
    expect(replied.output_text).toContain(first.output_text.split(' ').slice(0, 4).join(' '))
  })
})
