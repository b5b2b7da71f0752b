import { describe, expect, it } from 'vitest'
import { frames, json, RESPONSES, simulator, T2V } from './helpers.js'
import { raw } from './rawHttp.js'

const key = (value: string) => ({ 'idempotency-key': value })

describe('simulator: creation faults (counted over creation POSTs)', () => {
  it('resetBeforeCreate destroys the socket before anything is created', async () => {
    const sim = await simulator({ faults: { resetBeforeCreate: { every: 2 } } })
    const outcomes = []
    for (let i = 0; i < 4; i++) outcomes.push(await raw(sim, T2V, { body: { prompt: `fox ${i}` } }))
    expect(outcomes.map((o) => [o.status, o.reset])).toEqual([[202, false], [0, true], [202, false], [0, true]])
    expect(sim.tasks).toHaveLength(2)
    expect(sim.faultCounts).toEqual({ resetBeforeCreate: 2 })
    await expect.poll(() => sim.openConnections).toBe(0)
    expect(sim.connectionsClosedByClient).toBe(0)
  })

  it('does not count reads: only creation POSTs move the count', async () => {
    const sim = await simulator({ faults: { resetBeforeCreate: { every: 2 } } })
    const id = (await json(sim, T2V, { body: { prompt: 'a' } })).body.task_info.id
    for (let i = 0; i < 3; i++) expect((await json(sim, `${T2V}/${id}`)).status).toBe(200)
    expect((await raw(sim, T2V, { body: { prompt: 'b' } })).reset).toBe(true)
  })

  it('resetAfterCreate creates the task, then resets: the ledger shows it undelivered, and a retry with the key gets it', async () => {
    const sim = await simulator({ faults: { resetAfterCreate: { every: 1 } } })
    const cut = await raw(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    expect([cut.status, cut.reset, cut.body.length]).toEqual([0, true, 0])
    expect(sim.tasks).toEqual([expect.objectContaining({ idempotencyKey: 'k1', delivered: false, reads: 0 })])
    sim.setFaults({})
    const retry = await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    expect(retry.status).toBe(202)
    expect(retry.body.task_info.id).toBe(sim.tasks[0]!.id)
    expect(sim.tasks).toHaveLength(1)
    expect(sim.tasks[0]!.delivered).toBe(true)
  })

  it('resetAfterCreate with idempotency ignore: a blind retry creates a second task', async () => {
    const sim = await simulator({ idempotency: 'ignore', faults: { resetAfterCreate: { every: 2 } } })
    await json(sim, T2V, { body: { prompt: 'first' } })
    expect((await raw(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })).reset).toBe(true)
    await json(sim, T2V, { body: { prompt: 'A fox' }, headers: key('k1') })
    expect(sim.tasks.filter((t) => t.idempotencyKey === 'k1').map((t) => t.delivered)).toEqual([false, true])
  })

  it('resetAfterCreate on a response creation stores the response, then resets', async () => {
    const sim = await simulator({ faults: { resetAfterCreate: { every: 1 } } })
    expect((await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi', background: true } })).reset).toBe(true)
    expect(sim.responses).toEqual([expect.objectContaining({ background: true, delivered: false })])
    sim.setFaults({})
    expect((await json(sim, `${RESPONSES}/${sim.responses[0]!.id}`)).status).toBe(200)
  })

  it('garbledCreateReply creates, then sends a 202 whose JSON is cut mid-way and ends cleanly', async () => {
    const sim = await simulator({ faults: { garbledCreateReply: { every: 1 } } })
    const outcome = await raw(sim, T2V, { body: { prompt: 'A fox' } })
    expect([outcome.status, outcome.reset]).toEqual([202, false])
    expect(outcome.headers['content-type']).toBe('application/json')
    const text = outcome.body.toString()
    expect(text.startsWith('{"task_info":{')).toBe(true)
    expect(() => JSON.parse(text)).toThrow()
    expect(sim.tasks).toEqual([expect.objectContaining({ delivered: false })])
    expect(text).toContain(sim.tasks[0]!.id.slice(0, 8))
  })

  it('garbledCreateReply on responses: a 200 cut mid-JSON, or a stream whose first frame is cut', async () => {
    const sim = await simulator({ faults: { garbledCreateReply: { every: 1 } } })
    const plain = await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi' } })
    expect([plain.status, plain.reset]).toEqual([200, false])
    expect(() => JSON.parse(plain.body.toString())).toThrow()
    const streamed = await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true } })
    expect([streamed.status, streamed.reset]).toEqual([200, false])
    const text = streamed.body.toString()
    expect(text.startsWith('event: response.created\ndata: {')).toBe(true)
    expect(text.endsWith('\n\n')).toBe(false)
    expect(frames(text)[0]!.json).toBeUndefined()
    expect(sim.responses).toHaveLength(2)
  })
})
