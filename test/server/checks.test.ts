import { describe, expect, it, vi } from 'vitest'
import { errorOf, post, RESPONSES, startProxy, startUpstream, T2V } from './helpers.js'

describe('createGatewayHandler: what is checked before anything is sent', () => {
  it('checks bodies by the client’s own rules and names each broken rule', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url })
    const res = await post(base + RESPONSES, { model: 'm', temperature: 3, top_p: -1 })
    expect(res.status).toBe(400)
    const error = await errorOf(res)
    expect(error.code).toBe('invalid_request')
    expect(error.message).toMatch(/temperature: must be from 0 to 2 \(got 3\)/)
    expect(error.issues).toEqual([expect.objectContaining({ path: 'temperature' }), expect.objectContaining({ path: 'top_p' })])
    const t2v = await post(base + T2V, { prompt: 'x', duration: 7, safety_filter: true })
    expect(t2v.status).toBe(400)
    expect((await errorOf(t2v)).message).toMatch(/duration: must be 5 or 10.*safety_filter: is not a field/)
    expect(upstream.requests).toEqual([])
  })

  it('forwards the body as checked, and lets unknown text-to-video fields through when told', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url, allowUnknownTextToVideoFields: true })
    expect((await post(base + T2V, '{ "prompt" : "A kite",  "safety_filter": true }')).status).toBe(200)
    expect(upstream.requests[0]!.body).toBe('{"prompt":"A kite","safety_filter":true}')
    expect(upstream.requests[0]!.headers['content-type']).toBe('application/json')
  })

  it('refuses a body that is not JSON, not sent as JSON, or empty', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url })
    expect((await post(base + RESPONSES, '{"model":')).status).toBe(400)
    expect((await post(base + RESPONSES, '')).status).toBe(400)
    expect((await fetch(base + RESPONSES, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"model":"m"}' })).status).toBe(415)
    expect((await fetch(base + RESPONSES, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0x7d]) })).status).toBe(400)
    expect(upstream.requests).toEqual([])
  })

  it('caps the body size, declared or streamed', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url, maxBodyBytes: 1_000 })
    const big = JSON.stringify({ model: 'm', input: 'x'.repeat(2_000) })
    const declared = await post(base + RESPONSES, big)
    expect(declared.status).toBe(413)
    expect((await errorOf(declared)).code).toBe('body_too_large')
    // Chunked, with no length: counted as it arrives.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 600, (i + 1) * 600)))
        controller.close()
      },
    })
    const streamed = await fetch(base + RESPONSES, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(upstream.requests).toEqual([])
  })

  it('keeps to the allow-list of models, for responses and tasks', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url, models: ['gpt-4.1-mini'] })
    expect((await post(base + RESPONSES, { model: 'gpt-4.1-mini', input: 'hi' })).status).toBe(200)
    const refused = await post(base + RESPONSES, { model: 'o3-pro', input: 'hi' })
    expect(refused.status).toBe(403)
    expect((await errorOf(refused)).code).toBe('model_not_allowed')
    expect((await post(base + T2V, { prompt: 'A kite' })).status).toBe(403)
    expect(upstream.requests).toHaveLength(1)

    const open = await startProxy({ baseUrl: upstream.url, models: ['vendor-b/t2v-spark'] })
    expect((await post(open.base + T2V, { prompt: 'A kite' })).status).toBe(200)
  })

  it('asks authorize first, and sends its refusal as it is', async () => {
    const upstream = await startUpstream()
    const authorize = vi.fn((request: Request) => {
      const cookie = request.headers.get('cookie') ?? ''
      if (cookie.includes('session=ok')) return true
      if (cookie.includes('session=banned')) return new Response('{"error":{"message":"banned"}}', { status: 403 })
      return false
    })
    const { base } = await startProxy({ baseUrl: upstream.url, authorize })
    const body = { model: 'm', input: 'hi' }
    const anonymous = await post(base + RESPONSES, body)
    expect(anonymous.status).toBe(401)
    expect((await errorOf(anonymous)).code).toBe('unauthorized')
    expect((await post(base + RESPONSES, body, { cookie: 'session=banned' })).status).toBe(403)
    expect((await post(base + RESPONSES, body, { cookie: 'session=ok' })).status).toBe(200)
    expect(upstream.requests).toHaveLength(1)
    // Checked before the body is read: a stranger's body is never looked at.
    expect((await post(base + RESPONSES, '{"model": 42}')).status).toBe(401)
  })

  it('answers a failing authorize with a JSON 500 and reports it, masked', async () => {
    const upstream = await startUpstream()
    const onError = vi.fn()
    const { base } = await startProxy({
      baseUrl: upstream.url,
      onError,
      authorize: () => {
        throw new Error('session store down')
      },
    })
    const res = await post(base + RESPONSES, { model: 'm' })
    expect(res.status).toBe(500)
    expect((await errorOf(res)).message).not.toMatch(/session store/)
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'session store down' }), expect.any(Request))
  })
})
