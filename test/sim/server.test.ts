import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../src/sim/index.js'
import { call, json, RESPONSES, simulator, T2V } from './helpers.js'
import { raw } from './rawHttp.js'

describe('simulator server: auth, CORS, routing, bodies, lifecycle', () => {
  it('answers 401 with an invalid_api_key error when the token is missing or wrong, without echoing it', async () => {
    const sim = await simulator({ apiKey: 'right-key' })
    for (const headers of [{ authorization: '' }, { authorization: 'Bearer wrong-key' }, { authorization: 'Basic right-key' }]) {
      const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'hi' }, headers })
      expect(res.status).toBe(401)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('www-authenticate')).toBe('Bearer')
      const text = await res.text()
      expect(JSON.parse(text).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' })
      expect(text).not.toContain('wrong-key')
    }
    expect((await call(sim, `${T2V}/00000000-0000-4000-8000-000000000000`, { headers: { authorization: '' } })).status).toBe(401)
  })

  it('answers a CORS preflight with 204 without a token', async () => {
    const sim = await simulator()
    const res = await fetch(`${sim.url}${RESPONSES}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS')
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key')
  })

  it('answers 404 JSON for an unknown path and 405 with Allow for a wrong method', async () => {
    const sim = await simulator()
    const unknown = await json(sim, '/vendors/vendor-z/v1/nothing')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('not_found')
    const wrong = await call(sim, RESPONSES, { method: 'GET' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('POST')
    expect(wrong.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers 400 for a body that is not JSON, or JSON that is not an object', async () => {
    const sim = await simulator()
    for (const body of ['{"model": ', '', '[1,2]', '"text"', 'null', '42']) {
      const reply = await json(sim, RESPONSES, { body })
      expect(reply.status).toBe(400)
      expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', param: null })
      expect(['invalid_json', 'invalid_type']).toContain(reply.body.error.code)
    }
    expect((await json(sim, T2V, { body: '[]' })).status).toBe(400)
  })

  it('answers 413 for a body over 1 MB (1,000,000 bytes), and takes one of exactly 1 MB', async () => {
    const sim = await simulator()
    const pad = (size: number) => {
      const head = '{"model":"m","input":"'
      return `${head}${'a'.repeat(size - head.length - 2)}"}`
    }
    expect(Buffer.byteLength(pad(1_000_000))).toBe(1_000_000)
    expect((await call(sim, RESPONSES, { body: pad(1_000_000) })).status).toBe(200)
    const over = await raw(sim, RESPONSES, { body: pad(1_000_001) })
    expect(over.status).toBe(413)
    expect(JSON.parse(over.body.toString()).error.code).toBe('request_too_large')
  })

  it('logs each request with method, path, query, status and idempotency key', async () => {
    const sim = await simulator()
    await call(sim, `${RESPONSES}/resp_nope?stream=false`)
    await call(sim, T2V, { body: { prompt: 'x' }, headers: { 'idempotency-key': 'k-1' } })
    expect(sim.requests).toEqual([
      expect.objectContaining({ method: 'GET', path: `${RESPONSES}/resp_nope`, search: '?stream=false', status: 404, aborted: false }),
      expect.objectContaining({ method: 'POST', path: T2V, search: '', status: 202, idempotencyKey: 'k-1' }),
    ])
    expect(sim.requests[0]).not.toHaveProperty('idempotencyKey')
  })

  it('moves the simulated clock with advanceTime and refuses going back', async () => {
    const sim = await simulator()
    const before = sim.now()
    sim.advanceTime(3_600_000)
    expect(sim.now() - before).toBeGreaterThanOrEqual(3_600_000)
    expect(() => sim.advanceTime(-1)).toThrow(RangeError)
  })

  it('close() ends open connections, including a stream in flight, and can be called twice', async () => {
    const sim = await startSimulator({ streamDelayMs: 60_000 })
    const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true } })
    const reader = res.body!.getReader()
    await reader.read()
    expect(sim.openConnections).toBe(1)
    await Promise.all([sim.close(), sim.close()])
    await expect(reader.read()).rejects.toThrow()
    expect(sim.openConnections).toBe(0)
    expect(sim.connectionsClosedByClient).toBe(0)
  })

  it('counts a connection the client closes mid-stream and marks the request aborted', async () => {
    const sim = await simulator({ streamDelayMs: 50 })
    const abort = new AbortController()
    const res = await call(sim, RESPONSES, { body: { model: 'm', input: 'hi', stream: true }, signal: abort.signal })
    await res.body!.getReader().read()
    abort.abort()
    await expect.poll(() => sim.connectionsClosedByClient).toBe(1)
    await expect.poll(() => sim.requests[0]?.aborted).toBe(true)
  })
})
