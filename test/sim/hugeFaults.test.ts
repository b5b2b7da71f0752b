import { describe, expect, it } from 'vitest'
import { createTask, json, RESPONSES, simulator, T2V } from './helpers.js'
import { raw, readThenLeave } from './rawHttp.js'

describe('simulator: huge bodies', () => {
  it('hugeReply pads every 2xx JSON reply to about the size asked, still valid JSON of the same value, without Content-Length', async () => {
    const sim = await simulator({ faults: { hugeReply: { bytes: 3_000_000 } } })
    const created = await raw(sim, T2V, { body: { prompt: 'A fox' } })
    expect(created.status).toBe(202)
    expect(created.headers['content-length']).toBeUndefined()
    expect(created.body.length).toBeGreaterThanOrEqual(3_000_000)
    expect(created.body.length).toBeLessThan(3_001_000)
    const task = JSON.parse(created.body.toString())
    expect(Object.keys(task.task_info).sort()).toEqual(['created_at', 'id', 'updated_at'])
    const read = await raw(sim, `${T2V}/${task.task_info.id}`)
    expect(JSON.parse(read.body.toString()).task_info.status).toBe('pending')
    const response = await raw(sim, RESPONSES, { body: { model: 'm', input: 'Say hi' } })
    expect(JSON.parse(response.body.toString()).output_text).toBe('Hi there! How can I help you today?')
    expect(sim.faultCounts).toEqual({ hugeReply: 3 })
  })

  it('leaves error replies and streams alone', async () => {
    const sim = await simulator({ faults: { hugeReply: { bytes: 1_000_000 } } })
    expect((await raw(sim, RESPONSES, { body: { model: 'm', temperature: 9 } })).body.length).toBeLessThan(1_000)
    const streamed = await raw(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true } })
    expect(streamed.body.length).toBeLessThan(100_000)
  })

  it('hugeReply of Infinity never ends: it stops when the client leaves', async () => {
    const sim = await simulator({ faults: { hugeReply: { bytes: Infinity } } })
    const { status, bytes } = await readThenLeave(sim, RESPONSES, { model: 'm', input: 'hi' }, 2_000_000)
    expect(status).toBe(200)
    expect(bytes[0]).toBe('{'.charCodeAt(0))
    expect(bytes.subarray(1).every((b) => b === 0x20)).toBe(true)
    await expect.poll(() => sim.openConnections).toBe(0)
    expect(sim.requests[0]!.aborted).toBe(true)
  })

  it('hugeErrorBody answers every Nth request 500 with a JSON error body of exactly that many bytes', async () => {
    const sim = await simulator({ faults: { hugeErrorBody: { every: 2, bytes: 200_000 } } })
    expect((await raw(sim, T2V, { body: { prompt: 'x' } })).status).toBe(202)
    const huge = await raw(sim, T2V, { body: { prompt: 'x' } })
    expect(huge.status).toBe(500)
    expect(huge.body.length).toBe(200_000)
    expect(JSON.parse(huge.body.toString()).error).toMatchObject({ type: 'server_error', code: 'server_error' })
    expect(sim.tasks).toHaveLength(1)
  })

  it('hugeErrorBody of Infinity never ends: it stops when the client leaves', async () => {
    const sim = await simulator()
    const id = await createTask(sim, T2V)
    sim.setFaults({ hugeErrorBody: { every: 1, bytes: Infinity } })
    const { status, bytes } = await readThenLeave(sim, `${T2V}/${id}`, undefined, 1_000_000)
    expect(status).toBe(500)
    expect(bytes.toString('latin1', 0, 20)).toBe('{"error":{"message":')
    await expect.poll(() => sim.requests.at(-1)?.aborted).toBe(true)
    sim.setFaults({})
    expect((await json(sim, `${T2V}/${id}`)).status).toBe(200)
  })
})
