import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { call, simulator } from './helpers.js'

const ORIGIN = 'http://localhost:5173'
const RESPONSES = '/vendors/vendor-a/v1/responses'

// Node's fetch enforces no CORS, so these read the headers a browser would check.
describe('CORS for a browser app on another localhost port', () => {
  it('a preflight OPTIONS is answered without a token, allowing the method and the asked headers', async () => {
    const sim = await simulator()
    const res = await request(`${sim.url}${RESPONSES}`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-client-trace',
      },
    })
    await res.body.text()
    expect(res.statusCode).toBeGreaterThanOrEqual(200)
    expect(res.statusCode).toBeLessThan(300)
    const allowOrigin = res.headers['access-control-allow-origin']
    expect([ORIGIN, '*']).toContain(allowOrigin)
    const methods = String(res.headers['access-control-allow-methods']).split(/\s*,\s*/)
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST']))
    const headers = String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/)
    expect(headers).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-client-trace']))
    // The preflight is not counted as a gateway call: it is neither authenticated nor faulted.
    expect(sim.requests[0]).toMatchObject({ method: 'OPTIONS', status: res.statusCode })
  })

  it('a preflight is answered even while faults are in force', async () => {
    const sim = await simulator({ faults: { serverErrors: { every: 1 } } })
    const res = await fetch(`${sim.url}${RESPONSES}`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    })
    expect(res.ok).toBe(true)
    expect(res.headers.get('access-control-allow-origin')).toBeTruthy()
  })

  it('a real cross-origin GET carries access-control-allow-origin, and exposes Retry-After', async () => {
    const sim = await simulator()
    const created = await call(sim, '/vendors/vendor-a/v1/video-one/generation', { body: { prompt: 'cors' } })
    const { task_info } = (await created.json()) as { task_info: { id: string } }
    const res = await call(sim, `/vendors/vendor-a/v1/video-one/generation/${task_info.id}`, { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect([ORIGIN, '*']).toContain(res.headers.get('access-control-allow-origin'))
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('retry-after')
  })

  it('error replies carry access-control-allow-origin too, so a browser can read them', async () => {
    const sim = await simulator()
    const res = await fetch(`${sim.url}${RESPONSES}`, { method: 'POST', headers: { origin: ORIGIN }, body: '{}' })
    expect(res.status).toBe(401)
    expect([ORIGIN, '*']).toContain(res.headers.get('access-control-allow-origin'))
  })
})
