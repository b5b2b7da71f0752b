import { describe, expect, it } from 'vitest'
import { call, frames, FROZEN, json, RESPONSES, simulator, stream } from './helpers.js'
import { wellFormed } from './wellFormed.js'

const EXPECTED_ORDER = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.completed',
]

describe('simulator: streamed responses', () => {
  it('sends well-formed OpenAI Responses frames, in lifecycle order, matching the JSON reply', async () => {
    const sim = await simulator()
    const events = await stream(sim, { input: 'Write a video prompt about a harbour' })
    const final = wellFormed(events)
    const order = events.map((f) => f.event).filter((type, i, all) => type !== all[i - 1])
    expect(order).toEqual(EXPECTED_ORDER)
    const deltas = events.filter((f) => f.event === 'response.output_text.delta').map((f) => f.json.delta as string)
    expect(deltas.join('')).toContain('—')
    expect(final).toMatchObject({ status: 'completed', output_text: deltas.join('') })
    expect(final.usage.completion_tokens).toBe(deltas.length)
    const plain = await json(sim, RESPONSES, { body: { model: 'gpt-4o', input: 'Write a video prompt about a harbour' } })
    expect(plain.body.output_text).toBe(final.output_text)
    expect(sim.responses[0]).toMatchObject({ stream: true, delivered: true })
  })

  it('ends a [fail] stream with response.failed', async () => {
    const sim = await simulator()
    const events = await stream(sim, { input: '[fail] this one' })
    wellFormed(events)
    expect(events.map((f) => f.event)).toEqual(['response.created', 'response.in_progress', 'response.failed'])
    expect(events[2]!.json.response).toMatchObject({ status: 'failed', error: { code: 'server_error' } })
  })

  it('ends a stream cut by max_output_tokens with response.incomplete', async () => {
    const sim = await simulator()
    const events = await stream(sim, { input: 'Tell me about tides', max_output_tokens: 3 })
    const final = wellFormed(events)
    expect(final.status).toBe('incomplete')
    expect(events.filter((f) => f.event === 'response.output_text.delta')).toHaveLength(3)
  })

  it('reproduces the quirks: : ping comments, \\r\\n line ends and a final [DONE]', async () => {
    const sim = await simulator({ quirks: { ping: true, crlf: true, done: true } })
    const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true } })
    const text = await res.text()
    expect(text.startsWith(': ping\r\n\r\nevent: response.created\r\n')).toBe(true)
    expect(text.replaceAll('\r\n', '')).not.toContain('\n')
    expect(text.endsWith('data: [DONE]\r\n\r\n')).toBe(true)
    const parsed = frames(text)
    expect(parsed.at(-1)!.data).toBe('[DONE]')
    wellFormed(parsed)
  })

  it('writes frames incrementally, streamDelayMs apart', async () => {
    const sim = await simulator({ streamDelayMs: 20 })
    const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true } })
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toContain('response.created')
    expect(first).not.toContain('response.completed')
    await reader.cancel()
  })
})

describe('simulator: background responses', () => {
  it('goes queued, in_progress, completed on the simulated clock', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const created = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi', background: true } })
    expect(created.body).toMatchObject({ status: 'queued', background: true, output: [], usage: null })
    const read = async () => (await json(sim, `${RESPONSES}/${created.body.id}`)).body
    expect((await read()).status).toBe('queued')
    sim.advanceTime(FROZEN.pendingMs)
    expect((await read()).status).toBe('in_progress')
    sim.advanceTime(FROZEN.processingMs)
    const done = await read()
    expect(done.status).toBe('completed')
    expect(done.output_text).toBe('Hi there! How can I help you today?')
  })

  it('replays the stored events after starting_after, then ends; refuses a bad starting_after', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const live = await stream(sim, { input: 'Tell me about tides', background: true })
    wellFormed(live)
    expect(live.map((f) => f.event).slice(0, 3)).toEqual(['response.created', 'response.queued', 'response.in_progress'])
    expect(live[0]!.json.response.status).toBe('queued')
    const id = live[0]!.json.response.id
    const all = frames(await (await call(sim, `${RESPONSES}/${id}?stream=true`)).text())
    expect(all.map((f) => f.data)).toEqual(live.map((f) => f.data))
    const rest = frames(await (await call(sim, `${RESPONSES}/${id}?stream=true&starting_after=10`)).text())
    expect(rest.map((f) => f.json.sequence_number)).toEqual(live.slice(11).map((f) => f.json.sequence_number))
    expect(rest.at(-1)!.event).toBe('response.completed')
    for (const bad of ['-1', '1.5', 'x']) expect((await call(sim, `${RESPONSES}/${id}?stream=true&starting_after=${bad}`)).status).toBe(400)
  })

  it('cancels a running background response; refuses a foreground one', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const created = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi', background: true } })
    const cancelled = await json(sim, `${RESPONSES}/${created.body.id}/cancel`, { method: 'POST' })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe('cancelled')
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    expect((await json(sim, `${RESPONSES}/${created.body.id}`)).body.status).toBe('cancelled')
    const replay = frames(await (await call(sim, `${RESPONSES}/${created.body.id}?stream=true`)).text())
    expect(replay.map((f) => f.event)).toEqual(['response.created', 'response.queued', 'response.in_progress'])
    const foreground = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })
    const refused = await json(sim, `${RESPONSES}/${foreground.body.id}/cancel`, { method: 'POST' })
    expect(refused.status).toBe(400)
    expect((await call(sim, `${RESPONSES}/resp_nope/cancel`, { method: 'POST' })).status).toBe(404)
  })

  it('returns a finished background response unchanged when cancelled late', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const created = await json(sim, RESPONSES, { body: { model: 'm', input: 'hi', background: true } })
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    expect((await json(sim, `${RESPONSES}/${created.body.id}/cancel`, { method: 'POST' })).body.status).toBe('completed')
  })
})
