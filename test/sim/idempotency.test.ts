import { describe, expect, it } from 'vitest'
import { frames, json, RESPONSES, simulator, T2V, VIDEO_ONE } from './helpers.js'
import { raw } from './rawHttp.js'
import { wellFormed } from './wellFormed.js'

const key = (value: string) => ({ 'idempotency-key': value })

describe('simulator: Idempotency-Key on creation POSTs', () => {
  it('honours a repeated key with the same body: the same task, 202 with the same task_info, no second creation', async () => {
    const sim = await simulator()
    const first = await json(sim, T2V, { body: { prompt: 'A fox', seed: 1 }, headers: key('k1') })
    const again = await json(sim, T2V, { body: { seed: 1, prompt: 'A fox' }, headers: key('k1') }) // key order does not matter
    expect(again.status).toBe(202)
    expect(again.body).toEqual(first.body)
    expect(sim.tasks).toHaveLength(1)
    expect(sim.tasks[0]!.idempotencyKey).toBe('k1')
    expect(sim.requests.map((r) => r.idempotencyKey)).toEqual(['k1', 'k1'])
  })

  it('answers 409 idempotency_key_reused for the same key with another body or path', async () => {
    const sim = await simulator()
    await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    for (const [path, body] of [[T2V, { prompt: 'A cat' }], [VIDEO_ONE, { prompt: 'A fox' }]] as const) {
      const reply = await json(sim, path, { body, headers: key('k1') })
      expect(reply.status).toBe(409)
      expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_reused', param: null })
    }
    expect(sim.tasks).toHaveLength(1)
  })

  it('treats different keys, and no key, as new creations', async () => {
    const sim = await simulator()
    await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k2') })
    await json(sim, T2V, { body: { prompt: 'A fox' } })
    await json(sim, T2V, { body: { prompt: 'A fox' } })
    expect(sim.tasks.map((t) => t.idempotencyKey)).toEqual(['k1', 'k2', undefined, undefined])
  })

  it('returns the same stored response for a repeated key: its current snapshot as JSON, or its events re-streamed', async () => {
    const sim = await simulator({ timeScale: { pendingMs: 60_000, processingMs: 60_000 } })
    const body = { model: 'm', input: 'Say hi', background: true }
    const first = await json(sim, RESPONSES, { body, headers: key('r1') })
    sim.advanceTime(120_000)
    const again = await json(sim, RESPONSES, { body, headers: key('r1') })
    expect(again.body).toMatchObject({ id: first.body.id, status: 'completed', output_text: 'Hi there! How can I help you today?' })
    expect(sim.responses).toHaveLength(1)

    const streamed = { model: 'm', input: 'Tell me about tides', stream: true }
    const live = frames((await raw(sim, RESPONSES, { body: streamed, headers: key('r2') })).body.toString())
    const replay = frames((await raw(sim, RESPONSES, { body: streamed, headers: key('r2') })).body.toString())
    wellFormed(replay)
    expect(replay.map((f) => f.data)).toEqual(live.map((f) => f.data))
    expect(sim.responses).toHaveLength(2)
    expect((await json(sim, RESPONSES, { body: { ...streamed, input: 'other' }, headers: key('r2') })).status).toBe(409)
  })

  it("with idempotency 'ignore', creates anew on every POST (and still logs the key)", async () => {
    const sim = await simulator({ idempotency: 'ignore' })
    const a = await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    const b = await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    const c = await json(sim, T2V, { body: { prompt: 'A cat' }, headers: key('k1') })
    expect([a.status, b.status, c.status]).toEqual([202, 202, 202])
    expect(new Set([a.body.task_info.id, b.body.task_info.id, c.body.task_info.id]).size).toBe(3)
    expect(sim.tasks.filter((t) => t.idempotencyKey === 'k1')).toHaveLength(3)
    await json(sim, RESPONSES, { body: { model: 'm', input: 'x' }, headers: key('r') })
    await json(sim, RESPONSES, { body: { model: 'm', input: 'x' }, headers: key('r') })
    expect(sim.responses).toHaveLength(2)
  })

  it('does not remember a refused creation: a 400 with a key leaves the key free', async () => {
    const sim = await simulator()
    expect((await json(sim, T2V, { body: { prompt: '' }, headers: key('k1') })).status).toBe(400)
    expect((await json(sim, T2V, { body: { prompt: 'ok' }, headers: key('k1') })).status).toBe(202)
  })
})
