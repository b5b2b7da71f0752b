import { describe, expect, it } from 'vitest'
import { CHAOS_FAULTS, type SimFaults, type Simulator } from '../../src/sim/index.js'
import { createTask, RESPONSES, simulator, T2V } from './helpers.js'
import { raw } from './rawHttp.js'

/** A fixed script of requests of every kind; the outcome of each, as statuses. */
async function script(sim: Simulator): Promise<number[]> {
  sim.setFaults({})
  const id = await createTask(sim, T2V)
  const bg = (await (await fetch(`${sim.url}${RESPONSES}`, { method: 'POST', headers: { authorization: `Bearer ${sim.apiKey}` }, body: JSON.stringify({ model: 'm', input: 'hi', background: true }) })).json()).id
  sim.setFaults({ chaos: { rate: 0.5, seed: 42 } })
  const statuses: number[] = []
  for (let i = 0; i < 8; i++) {
    statuses.push((await raw(sim, T2V, { body: { prompt: `p${i}` } })).status)
    statuses.push((await raw(sim, `${T2V}/${id}`)).status)
    statuses.push((await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: i % 2 === 0 } })).status)
    statuses.push((await raw(sim, `${RESPONSES}/${bg}`)).status)
  }
  return statuses
}

describe('simulator: chaos', () => {
  it('repeats: the same seed and the same requests give the same faults', async () => {
    const [a, b] = [await simulator(), await simulator()]
    const [statusesA, statusesB] = [await script(a), await script(b)]
    expect(statusesA).toEqual(statusesB)
    expect(a.faultLog.map((f) => [f.request, f.fault])).toEqual(b.faultLog.map((f) => [f.request, f.fault]))
    expect(a.faultLog.length).toBeGreaterThan(4)
    expect(a.faultLog.length).toBeLessThan(28)
    expect(a.faultLog.every((f) => f.by === 'chaos')).toBe(true)
    const c = await simulator()
    c.setFaults({ chaos: { rate: 0.5, seed: 7 } })
    const other: string[] = []
    for (let i = 0; i < 16; i++) other.push(String((await raw(c, `${RESPONSES}/resp_x`)).status))
    expect(new Set(other).size).toBeGreaterThan(1)
  })

  it('draws only faults that fit the route, and counts them', async () => {
    const sim = await simulator()
    const id = await createTask(sim, T2V)
    const bg = (await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi', background: true } })).body.toString()
    const bgId = JSON.parse(bg).id
    sim.setFaults({ chaos: { rate: 1, seed: 3 } })
    for (let i = 0; i < 12; i++) {
      await raw(sim, T2V, { body: { prompt: `p${i}` } })
      await raw(sim, `${T2V}/${id}`)
      await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true } })
      await raw(sim, `${RESPONSES}/${bgId}?stream=true`)
      await raw(sim, `${RESPONSES}/${bgId}/cancel`, { method: 'POST' })
    }
    const fits = (path: string, search: string): readonly string[] => {
      if (path === T2V) return CHAOS_FAULTS.create
      if (path.startsWith(`${T2V}/`)) return CHAOS_FAULTS.taskRead
      if (path === RESPONSES) return CHAOS_FAULTS.streamCreate
      return search === '?stream=true' ? CHAOS_FAULTS.stream : CHAOS_FAULTS.other
    }
    const chaotic = sim.faultLog.filter((f) => f.by === 'chaos')
    expect(chaotic).toHaveLength(60)
    for (const f of chaotic) expect(fits(f.path, sim.requests[f.request]!.search)).toContain(f.fault)
    const counts = sim.faultCounts
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(60)
    expect(Object.keys(counts).every((name) => name.startsWith('chaos:'))).toBe(true)
    expect(Object.keys(counts).length).toBeGreaterThan(6)
  })

  it('does nothing at rate 0, and planned faults win over chaos', async () => {
    const sim = await simulator({ faults: { chaos: { rate: 0 } } })
    for (let i = 0; i < 5; i++) expect((await raw(sim, T2V, { body: { prompt: 'x' } })).status).toBe(202)
    const planned: SimFaults = { chaos: { rate: 1 }, serverErrors: { every: 1, status: 502 } }
    sim.setFaults(planned)
    expect((await raw(sim, T2V, { body: { prompt: 'x' } })).status).toBe(502)
    expect(sim.faultLog.map((f) => f.fault)).toEqual(['serverErrors'])
  })
})
