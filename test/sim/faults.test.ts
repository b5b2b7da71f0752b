import { describe, expect, it } from 'vitest'
import { call, frames, json, RESPONSES, simulator, T2V } from './helpers.js'

const body = { model: 'm', input: 'hi' }

describe('simulator: fault injection', () => {
  it('answers every Nth request 429 with the Retry-After given', async () => {
    const sim = await simulator({ faults: { rateLimit: { every: 3, retryAfter: '7' } } })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const res = await call(sim, RESPONSES, { body })
      statuses.push(res.status)
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('7')
        expect((await res.json()).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' })
      } else await res.body?.cancel()
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429])
  })

  it('answers every Nth request with the 5xx status given (500 by default)', async () => {
    const sim = await simulator({ faults: { serverErrors: { every: 2, status: 503 } } })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await json(sim, T2V, { body: { prompt: 'x' } })).status)
    expect(statuses).toEqual([202, 503, 202, 503])
    sim.setFaults({ serverErrors: { every: 1 } })
    const reply = await json(sim, T2V, { body: { prompt: 'x' } })
    expect(reply.status).toBe(500)
    expect(reply.body.error.type).toBe('server_error')
  })

  it('never faults preflights, files or unauthenticated requests', async () => {
    const sim = await simulator({ faults: { serverErrors: { every: 1 } } })
    expect((await fetch(`${sim.url}${RESPONSES}`, { method: 'OPTIONS' })).status).toBe(204)
    expect((await fetch(`${sim.url}/files/nothing.mp4`)).status).toBe(404)
    expect((await call(sim, RESPONSES, { body, headers: { authorization: 'Bearer nope' } })).status).toBe(401)
  })

  it('waits latencyMs before replying', async () => {
    const sim = await simulator({ faults: { latencyMs: 80 } })
    const started = Date.now()
    expect((await call(sim, RESPONSES, { body })).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(75)
  })

  it('destroys the socket after resetStreamAfter frames, counted as closed by the server', async () => {
    const sim = await simulator({ faults: { resetStreamAfter: 4 } })
    const res = await call(sim, RESPONSES, { body: { ...body, stream: true } })
    const reader = res.body!.getReader()
    let text = ''
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return
          text += new TextDecoder().decode(value)
        }
      })(),
    ).rejects.toThrow()
    expect(frames(text).map((f) => f.json.sequence_number)).toEqual([0, 1, 2, 3])
    await expect.poll(() => sim.openConnections).toBe(0)
    expect(sim.connectionsClosedByClient).toBe(0)
  })

  it('sends a non-JSON data frame as frame N, followed by the real events', async () => {
    const sim = await simulator({ faults: { malformedFrameAt: 3 } })
    const parsed = frames(await (await call(sim, RESPONSES, { body: { ...body, stream: true } })).text())
    expect(parsed[2]!.json).toBeUndefined()
    expect(parsed[2]!.data.startsWith('{')).toBe(true)
    expect(parsed.filter((f) => f.json).map((f) => f.json.sequence_number)).toEqual(parsed.slice(1).map((_, i) => i))
  })

  it('changes faults at run time and restarts the count; refuses invalid ones', async () => {
    const sim = await simulator()
    expect((await call(sim, RESPONSES, { body })).status).toBe(200)
    sim.setFaults({ rateLimit: { every: 1, retryAfter: 'Wed, 21 Oct 2037 07:28:00 GMT' } })
    const limited = await call(sim, RESPONSES, { body })
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, 'Wed, 21 Oct 2037 07:28:00 GMT'])
    sim.setFaults({})
    expect((await call(sim, RESPONSES, { body })).status).toBe(200)
    expect(() => sim.setFaults({ rateLimit: { every: 0, retryAfter: '1' } })).toThrow(RangeError)
    expect(() => sim.setFaults({ serverErrors: { every: 1, status: 404 } })).toThrow(RangeError)
  })
})
