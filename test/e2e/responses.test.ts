import { firstValueFrom } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { finalResponse, outputText, textDeltas, type Response, type ResponseStreamEvent } from '../../src/index.js'
import { all, clockedGatewayFor, FROZEN, gatewayFor, MODEL, observe, requestsTo, simulator } from './helpers.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'
const seqOf = (events: readonly ResponseStreamEvent[]) => events.map((e) => e.sequence_number)
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

describe('responses end to end', () => {
  const options = {}
  it('single: one completed Response whose text and usage add up', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const responses = await all(gateway.responses$({ model: MODEL, input: 'Write a video prompt about a harbour' }))
    expect(responses).toHaveLength(1)
    const [r] = responses as [Response]
    expect(r).toMatchObject({ object: 'response', status: 'completed', model: MODEL })
    expect(r.id).toMatch(/^resp_/)
    expect(r.output_text).toMatch(/—/) // a multibyte character survived the trip
    expect(r.output_text!.split(/\s+/).length).toBeGreaterThanOrEqual(20)
    const usage = r.usage as Record<string, number>
    expect(usage.prompt_tokens).toBe(7)
    expect(usage.total_tokens).toBe(usage.prompt_tokens! + usage.completion_tokens!)
    expect(requestsTo(sim, 'POST', RESPONSES)).toHaveLength(1)
  })

  it('stream: every event in order, numbered without gaps, ending in response.completed; the text equals the single reply', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const input = 'A fox in the snow'
    const events = await all(gateway.responses$({ model: MODEL, input, stream: true }))
    const types = events.map((e) => e.type)
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added'])
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed'])
    expect(seqOf(events)).toEqual(range(0, events.length))
    const deltas = events.filter((e) => e.type === 'response.output_text.delta')
    expect(deltas.length).toBeGreaterThan(10)

    const streamed = await firstValueFrom(gateway.responses$({ model: MODEL, input, stream: true }).pipe(outputText()))
    const joined = (await all(gateway.responses$({ model: MODEL, input, stream: true }).pipe(textDeltas()))).join('')
    const single = await firstValueFrom(gateway.responses$({ model: MODEL, input }).pipe(outputText()))
    expect(streamed).toBe(single)
    expect(joined).toBe(single)
    const done = events.find((e) => e.type === 'response.output_text.done') as { text: string }
    expect(done.text).toBe(single)
  })

  it('stream cut by max_output_tokens ends in response.incomplete with the first pieces', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const full = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'cut me' }).pipe(outputText()))
    const events = await all(gateway.responses$({ model: MODEL, input: 'cut me', stream: true, max_output_tokens: 3 }))
    expect(events.at(-1)!.type).toBe('response.incomplete')
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')
    expect(text.trim().split(/\s+/)).toHaveLength(3)
    expect(full.startsWith(text)).toBe(true)
    const final = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'cut me', stream: true, max_output_tokens: 3 }).pipe(finalResponse()))
    expect(final.status).toBe('incomplete')
  })

  it('stream with every quirk (pings, \\r\\n, [DONE]) gives the same events and text', async () => {
    const plain = await simulator()
    const quirky = await simulator({ quirks: { ping: true, crlf: true, done: true } })
    const body = { model: MODEL, input: 'quirks', stream: true } as const
    const a = await all(gatewayFor(plain, options).responses$(body))
    const b = await all(gatewayFor(quirky, options).responses$(body))
    expect(b.map((e) => e.type)).toEqual(a.map((e) => e.type))
    expect(seqOf(b)).toEqual(seqOf(a))
    const text = (events: ResponseStreamEvent[]) => events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')
    expect(text(b)).toBe(text(a))
  })

  it('background: polls GET {id} and emits queued, in_progress, completed once each, then stops polling', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { gateway, clock } = clockedGatewayFor(sim)
    const o = observe(gateway.responses$({ model: MODEL, input: 'background please', background: true, store: true }))
    await vi.waitFor(() => expect(o.values.map((r) => r.status)).toEqual(['queued']))
    const id = o.values[0]!.id
    const polls = () => requestsTo(sim, 'GET', `${RESPONSES}/${id}`).length
    // Polled three times while queued: no duplicate snapshot is emitted.
    await clock.runUntil(() => polls() === 3)
    expect(o.values.map((r) => r.status)).toEqual(['queued'])
    sim.advanceTime(FROZEN.pendingMs)
    await clock.runUntil(() => o.values.length === 2)
    expect(o.values.map((r) => r.status)).toEqual(['queued', 'in_progress'])
    sim.advanceTime(FROZEN.processingMs)
    await clock.runUntil(() => o.completed || o.error !== undefined)
    const outcome = await o.done
    expect(outcome.error).toBeUndefined()
    expect(outcome.values.map((r) => r.status)).toEqual(['queued', 'in_progress', 'completed'])
    expect(outcome.values.every((r) => r.id === id)).toBe(true)
    expect(outcome.values[2]!.output_text).toBeTruthy()
    expect(clock.pending).toBe(0) // polling stopped at the final status
  })

  it('background stream: includes response.queued and the same text', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const events = await all(gateway.responses$({ model: MODEL, input: 'bg stream', background: true, store: true, stream: true }))
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['response.created', 'response.queued', 'response.in_progress'])
    expect(seqOf(events)).toEqual(range(0, events.length))
    const single = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'bg stream' }).pipe(outputText()))
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')
    expect(text).toBe(single)
  })

  it('retrieval: one snapshot of a stored response; a stream of its events after startingAfter', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const created = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'keep me' }))
    const read = await all(gateway.retrieveResponse$(created.id))
    expect(read).toHaveLength(1)
    expect(read[0]).toMatchObject({ id: created.id, status: 'completed', output_text: created.output_text })

    const everything = await all(gateway.retrieveResponse$(created.id, { stream: true }))
    expect(seqOf(everything)).toEqual(range(0, everything.length))
    const tail = await all(gateway.retrieveResponse$(created.id, { stream: true, startingAfter: 5 }))
    expect(seqOf(tail)).toEqual(range(6, everything.length - 6))
    expect(tail.map((e) => e.type)).toEqual(everything.slice(6).map((e) => e.type))
    const replayed = requestsTo(sim, 'GET', `${RESPONSES}/${created.id}`).map((r) => r.search)
    expect(replayed).toContain('?stream=true&starting_after=5')
    const text = await firstValueFrom(gateway.retrieveResponse$(created.id, { stream: true }).pipe(outputText()))
    expect(text).toBe(created.output_text)
  })

  it('retrieval of a background response follows its status as stored', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const first = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'later', background: true, store: true }))
    expect((await firstValueFrom(gateway.retrieveResponse$(first.id))).status).toBe('queued')
    sim.advanceTime(FROZEN.pendingMs)
    expect((await firstValueFrom(gateway.retrieveResponse$(first.id))).status).toBe('in_progress')
    sim.advanceTime(FROZEN.processingMs)
    const done = await firstValueFrom(gateway.retrieveResponse$(first.id))
    expect(done.status).toBe('completed')
    expect(done.output_text).toBeTruthy()
  })

  it('cancelResponse$: a running background response becomes cancelled, and a follower of it ends there', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.responses$({ model: MODEL, input: 'cancel me', background: true, store: true }))
    await vi.waitFor(() => expect(o.values).toHaveLength(1))
    const id = o.values[0]!.id
    const cancelled = await all(gateway.cancelResponse$(id))
    expect(cancelled).toHaveLength(1)
    expect(cancelled[0]).toMatchObject({ id, status: 'cancelled' })
    expect(requestsTo(sim, 'POST', `${RESPONSES}/${id}/cancel`)).toHaveLength(1)
    const outcome = await o.done
    expect(outcome.error).toBeUndefined()
    expect(outcome.values.map((r) => r.status)).toEqual(['queued', 'cancelled'])
    expect((await firstValueFrom(gateway.retrieveResponse$(id))).status).toBe('cancelled')
  })

  it('multi-turn: previous_response_id of a stored response is accepted', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const first = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'turn one' }))
    const second = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'turn two', previous_response_id: first.id }))
    expect(second).toMatchObject({ status: 'completed', previous_response_id: first.id })
  })

  it.each([
    ['spec', { prompt_tokens: 2, completion_tokens: expect.any(Number), total_tokens: expect.any(Number) }],
    ['openai', { input_tokens: 2, output_tokens: expect.any(Number), total_tokens: expect.any(Number) }],
  ] as const)('usage shape %s is read, single and streamed', async (usageShape, expected) => {
    const sim = await simulator({ usageShape })
    const gateway = gatewayFor(sim, options)
    const single = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'two words' }))
    const streamed = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'two words', stream: true }).pipe(finalResponse()))
    for (const r of [single, streamed]) {
      expect(r.usage).toMatchObject(expected)
      const u = r.usage as Record<string, number>
      const out = u.completion_tokens ?? u.output_tokens
      expect(u.total_tokens).toBe(2 + out!)
      expect(out).toBe(r.output_text!.trim().split(/\s+/).length)
    }
  })
})
