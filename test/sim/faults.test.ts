import { describe, expect, it } from 'vitest'
import { call, frames, json, RESPONSES, simulator, T2V } from './helpers.js'
import { raw } from './rawHttp.js'

const body = { model: 'm', input: 'hi' }

describe('simulator: gateway-wide faults', () => {
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
    expect(sim.faultCounts).toEqual({ rateLimit: 2 })
    expect(sim.requests.map((r) => r.fault)).toEqual([undefined, undefined, 'rateLimit', undefined, undefined, 'rateLimit'])
  })

  it('sends Retry-After: 1 when none is given, and OpenAI\'s quota body for code insufficient_quota', async () => {
    const sim = await simulator({ faults: { rateLimit: { every: 1 } } })
    expect((await call(sim, RESPONSES, { body })).headers.get('retry-after')).toBe('1')
    sim.setFaults({ rateLimit: { every: 1, code: 'insufficient_quota' } })
    const quota = await call(sim, RESPONSES, { body })
    expect(quota.status).toBe(429)
    expect(quota.headers.get('retry-after')).toBeNull()
    expect(await quota.text()).toBe(
      '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
    )
  })

  it('answers every Nth request with the 5xx status given (500 by default); rateLimit wins a tie', async () => {
    const sim = await simulator({ faults: { serverErrors: { every: 2, status: 503 } } })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await json(sim, T2V, { body: { prompt: 'x' } })).status)
    expect(statuses).toEqual([202, 503, 202, 503])
    sim.setFaults({ serverErrors: { every: 1 } })
    const reply = await json(sim, T2V, { body: { prompt: 'x' } })
    expect(reply.status).toBe(500)
    expect(reply.body.error.type).toBe('server_error')
    sim.setFaults({ serverErrors: { every: 1 }, rateLimit: { every: 1 } })
    expect((await call(sim, RESPONSES, { body })).status).toBe(429)
  })

  it('never faults preflights, files, samples or unauthenticated requests', async () => {
    const sim = await simulator({ faults: { serverErrors: { every: 1 } } })
    expect((await fetch(`${sim.url}${RESPONSES}`, { method: 'OPTIONS' })).status).toBe(204)
    expect((await fetch(`${sim.url}/files/nothing.mp4`)).status).toBe(404)
    expect((await fetch(sim.sampleUrl('tone-5s.wav'))).status).toBe(200)
    expect((await call(sim, RESPONSES, { body, headers: { authorization: 'Bearer nope' } })).status).toBe(401)
    expect(sim.faultLog).toEqual([])
  })

  it('waits latencyMs before replying', async () => {
    const sim = await simulator({ faults: { latencyMs: 60 } })
    const started = performance.now()
    expect((await call(sim, RESPONSES, { body })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
  })

  it('destroys the socket after resetStreamAfter frames, counted as closed by the server', async () => {
    const sim = await simulator({ faults: { resetStreamAfter: 4 } })
    const outcome = await raw(sim, RESPONSES, { body: { ...body, stream: true } })
    expect(outcome.reset).toBe(true)
    expect(frames(outcome.body.toString()).map((f) => f.json.sequence_number)).toEqual([0, 1, 2, 3])
    await expect.poll(() => sim.openConnections).toBe(0)
    expect(sim.connectionsClosedByClient).toBe(0)
    sim.setFaults({ resetStreamAfter: 0 })
    const none = await raw(sim, RESPONSES, { body: { ...body, stream: true } })
    expect([none.reset, none.body.length]).toEqual([true, 0])
  })

  it('sends a non-JSON data frame as frame N, followed by the real events', async () => {
    const sim = await simulator({ faults: { malformedFrameAt: 3 } })
    const parsed = frames(await (await call(sim, RESPONSES, { body: { ...body, stream: true } })).text())
    expect(parsed[2]!.json).toBeUndefined()
    expect(parsed[2]!.data.startsWith('{')).toBe(true)
    expect(parsed.filter((f) => f.json).map((f) => f.json.sequence_number)).toEqual(parsed.slice(1).map((_, i) => i))
    expect(sim.faultCounts).toEqual({ malformedFrameAt: 1 })
  })

  it('changes faults at run time and restarts the count; refuses invalid ones with a RangeError naming the field', async () => {
    const sim = await simulator()
    expect((await call(sim, RESPONSES, { body })).status).toBe(200)
    sim.setFaults({ rateLimit: { every: 1, retryAfter: 'Wed, 21 Oct 2037 07:28:00 GMT' } })
    const limited = await call(sim, RESPONSES, { body })
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, 'Wed, 21 Oct 2037 07:28:00 GMT'])
    sim.setFaults({})
    expect((await call(sim, RESPONSES, { body })).status).toBe(200)
    const invalid: [object, RegExp][] = [
      [{ rateLimit: { every: 0 } }, /rateLimit\.every/],
      [{ serverErrors: { every: 1, status: 404 } }, /serverErrors\.status/],
      [{ badPollReply: { every: 1, kind: 'weird' } }, /badPollReply\.kind/],
      [{ hugeReply: { bytes: -1 } }, /hugeReply\.bytes/],
      [{ chaos: { rate: 1.5 } }, /chaos\.rate/],
      [{ rateLimit: { every: 1, code: 'nope' } }, /rateLimit\.code/],
      [{ drip: { everyMs: 0.5 } }, /drip\.everyMs/],
    ]
    for (const [faults, name] of invalid) expect(() => sim.setFaults(faults as never)).toThrow(name)
    expect(() => sim.setFaults({ hugeReply: { bytes: Infinity }, hugeErrorBody: { every: 1, bytes: Infinity } })).not.toThrow()
  })
})
