import { describe, expect, it } from 'vitest'
import { call, frames, FROZEN, json, RESPONSES, simulator } from './helpers.js'

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

async function stream(sim: Awaited<ReturnType<typeof simulator>>, body: Record<string, unknown>) {
  const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'A fox in the snow', stream: true, ...body } })
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
  return frames(await res.text())
}

describe('simulator: streamed responses', () => {
  it('sends OpenAI Responses frames with increasing sequence numbers, in lifecycle order', async () => {
    const sim = await simulator()
    const events = await stream(sim, {})
    events.forEach((frame, index) => {
      expect(frame.json.type).toBe(frame.event)
      expect(frame.json.sequence_number).toBe(index)
    })
    const order = events.map((f) => f.event).filter((type, i, all) => type !== all[i - 1])
    expect(order).toEqual(EXPECTED_ORDER)
    const deltas = events.filter((f) => f.event === 'response.output_text.delta').map((f) => f.json.delta as string)
    const text = deltas.join('')
    expect(text).toContain('—')
    expect(events.find((f) => f.event === 'response.output_text.done')!.json).toMatchObject({ text, output_index: 0, content_index: 0 })
    const completed = events.at(-1)!.json.response
    expect(completed).toMatchObject({ status: 'completed', output_text: text })
    expect(completed.usage.completion_tokens).toBe(deltas.length)
    const plain = await json(sim, RESPONSES, { body: { model: 'm', input: 'A fox in the snow' } })
    expect(plain.body.output_text).toBe(text)
  })

  it('ends a [fail] stream with response.failed', async () => {
    const sim = await simulator()
    const events = await stream(sim, { input: '[fail] this one' })
    expect(events.map((f) => f.event)).toEqual(['response.created', 'response.in_progress', 'response.failed'])
    expect(events[2]!.json.response).toMatchObject({ status: 'failed', error: { code: 'server_error' } })
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
    expect(parsed.slice(0, -1).every((f) => f.json !== undefined)).toBe(true)
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
    expect(done.output_text.length).toBeGreaterThan(0)
  })

  it('replays the stored events after starting_after, then ends', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const live = await stream(sim, { background: true })
    expect(live.map((f) => f.event).slice(0, 3)).toEqual(['response.created', 'response.queued', 'response.in_progress'])
    expect(live[0]!.json.response.status).toBe('queued')
    const id = live[0]!.json.response.id
    const all = frames(await (await call(sim, `${RESPONSES}/${id}?stream=true`)).text())
    expect(all.map((f) => f.data)).toEqual(live.map((f) => f.data))
    const rest = frames(await (await call(sim, `${RESPONSES}/${id}?stream=true&starting_after=10`)).text())
    expect(rest.map((f) => f.json.sequence_number)).toEqual(live.slice(11).map((f) => f.json.sequence_number))
    expect(rest.at(-1)!.event).toBe('response.completed')
    expect((await call(sim, `${RESPONSES}/${id}?stream=true&starting_after=-1`)).status).toBe(400)
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
})
