import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/sim/index.js'
import { call, FROZEN, json, RESPONSES, simulator } from './helpers.js'
import { raw } from './rawHttp.js'

// A stored response has one state at each moment: a GET made while its
// stream runs shows what the events sent so far have built, as a client that
// reads the stream builds it. Streams are paced slowly enough (PACE ms a
// frame) that each GET is answered before the next frame is written.
const PACE = 80

/** Yields each event of an SSE reply as soon as its frame has arrived. */
async function* eventsOf(res: Response): AsyncGenerator<any> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '))
      buffer = buffer.slice(end + 2)
      if (data) yield JSON.parse(data.slice(6))
    }
  }
}

/** What a client holds after each event: the response of the last lifecycle event, with the items, parts and text the events since have built. */
function reader() {
  let response: any
  return (e: any): any => {
    if ('response' in e) return (response = structuredClone(e.response))
    const item = response.output[e.output_index]
    const part = () => item.content[e.content_index]
    const summary = () => item.summary[e.summary_index]
    if (e.type === 'response.output_item.added' || e.type === 'response.output_item.done') response.output[e.output_index] = structuredClone(e.item)
    else if (e.type === 'response.content_part.added' || e.type === 'response.content_part.done') item.content[e.content_index] = structuredClone(e.part)
    else if (e.type === 'response.output_text.delta') part().text += e.delta
    else if (e.type === 'response.refusal.delta') part().refusal += e.delta
    else if (e.type === 'response.reasoning_summary_part.added' || e.type === 'response.reasoning_summary_part.done') item.summary[e.summary_index] = structuredClone(e.part)
    else if (e.type === 'response.reasoning_summary_text.delta') summary().text += e.delta
    else if (e.type === 'response.function_call_arguments.delta') item.arguments += e.delta
    return response
  }
}

/** Reads a stream to its end; at each event, GETs the response and expects what the events so far have built. Returns the last event. */
async function agreesAtEveryEvent(sim: Simulator, res: Response, held: (e: any) => any = reader()): Promise<any> {
  let last: any
  for await (const event of eventsOf(res)) {
    const expected = held(event)
    const stored = (await json(sim, `${RESPONSES}/${expected.id}`)).body
    expect(stored, `GET after ${event.type} #${event.sequence_number}`).toEqual(expected)
    last = event
  }
  return last
}

describe('simulator: a stored response and its stream agree at every event', () => {
  it.each([
    ['in the background, with a reasoning summary', { model: 'o3', background: true }, 'queued', FROZEN],
    ['in the background, on a clock that would finish it at once', { model: 'gpt-4o', background: true }, 'queued', { pendingMs: 0, processingMs: 0 }],
    ['in the foreground, stored', { model: 'gpt-4o' }, 'in_progress', FROZEN],
  ])('%s: status, output so far, and at the end the output_text and usage of response.completed', async (_, extra, opening, timeScale) => {
    const sim = await simulator({ timeScale, streamDelayMs: PACE })
    const res = await call(sim, RESPONSES, { body: { input: 'Say hi', stream: true, ...extra } })
    const statuses: string[] = []
    const held = reader()
    const last = await agreesAtEveryEvent(sim, res, (e) => {
      const now = held(e)
      statuses.push(now.status)
      return now
    })
    expect(statuses[0]).toBe(opening)
    expect(statuses).toContain('in_progress')
    expect(last.type).toBe('response.completed')
    const done = (await json(sim, `${RESPONSES}/${last.response.id}`)).body
    expect(done).toMatchObject({ status: 'completed', output_text: 'Hi there! How can I help you today?' })
    expect(done).toEqual(last.response)
    expect(done.usage.completion_tokens).toBeGreaterThan(0)
  })

  it('a stream cut mid-text leaves the text so far; resumed with starting_after, the replay moves it on, in step', async () => {
    const sim = await simulator({ timeScale: FROZEN, streamDelayMs: PACE, faults: { resetStreamAfter: 7 } })
    const cut = await raw(sim, RESPONSES, { body: { model: 'm', input: 'Say hi', stream: true, background: true } })
    expect(cut.reset).toBe(true)
    const sent = cut.body
      .toString()
      .split('\n\n')
      .flatMap((frame) => frame.split('\n').filter((line) => line.startsWith('data: ')))
      .map((line) => JSON.parse(line.slice(6)))
    expect(sent.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6])
    const held = reader()
    let state: any
    for (const event of sent) state = held(event)
    const stored = (await json(sim, `${RESPONSES}/${state.id}`)).body
    expect(stored).toEqual(state)
    expect(stored.status).toBe('in_progress')
    expect(stored.output[0].content[0].text).toBe('Hi there!')

    sim.setFaults({})
    const last = await agreesAtEveryEvent(sim, await call(sim, `${RESPONSES}/${state.id}?stream=true&starting_after=6`), held)
    expect(last.type).toBe('response.completed')
    expect((await json(sim, `${RESPONSES}/${state.id}`)).body).toEqual(last.response)
  })
})

describe('simulator: cancelling a finished response', () => {
  it('returns it unchanged, 200, however often: a streamed background response, then one finished on the clock', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const events = (await (await call(sim, RESPONSES, { body: { model: 'm', input: 'Say hi', background: true, stream: true } })).text())
      .split('\n\n')
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.split('\n').find((line) => line.startsWith('data: '))!.slice(6)))
    const completed = events.at(-1)
    expect(completed.type).toBe('response.completed')
    const id = completed.response.id
    for (const _ of [1, 2]) {
      const cancelled = await json(sim, `${RESPONSES}/${id}/cancel`, { method: 'POST' })
      expect(cancelled.status).toBe(200)
      expect(cancelled.body).toEqual(completed.response)
    }
    expect((await json(sim, `${RESPONSES}/${id}`)).body).toEqual(completed.response)

    const polled = await json(sim, RESPONSES, { body: { model: 'm', input: 'please [fail]', background: true } })
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const failed = (await json(sim, `${RESPONSES}/${polled.body.id}`)).body
    expect(failed.status).toBe('failed')
    for (const _ of [1, 2]) expect((await json(sim, `${RESPONSES}/${polled.body.id}/cancel`, { method: 'POST' })).body).toEqual(failed)
  })

  it('still cancels one that is running, mid-stream: the stream stops there and the response stays cancelled', async () => {
    const sim = await simulator({ timeScale: FROZEN, streamDelayMs: PACE })
    const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'Tell me about tides', background: true, stream: true } })
    const seen: any[] = []
    let cancelled: any
    for await (const event of eventsOf(res)) {
      seen.push(event)
      if (event.type === 'response.output_text.delta' && !cancelled) cancelled = (await json(sim, `${RESPONSES}/${seen[0].response.id}/cancel`, { method: 'POST' })).body
    }
    expect(cancelled).toMatchObject({ status: 'cancelled' })
    expect(seen.at(-1).type).toBe('response.output_text.delta')
    expect(seen.filter((e) => e.type === 'response.output_text.delta')).toHaveLength(1)
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    expect((await json(sim, `${RESPONSES}/${cancelled.id}`)).body).toEqual(cancelled)
  })
})
