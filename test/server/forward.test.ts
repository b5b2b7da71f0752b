import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient, isHttpError, outputText, responses$, taskUrls, textToVideo$ } from '../../src/index.js'
import { errorOf, json, KEY, post, RESPONSES, signal, simulator, startProxy, startUpstream, T2V } from './helpers.js'

const STREAM_BODY = { model: 'm', input: 'hi', stream: true }
const frame = (n: number, extra = '') => `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":${n},"delta":"w${n}${extra}"}\n\n`

describe('createGatewayHandler: forwarding', () => {
  it('passes each event on as it arrives, without waiting for the rest', async () => {
    const more = signal()
    const upstream = await startUpstream(async (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(frame(1))
      await more.promise
      res.end(frame(2))
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    const res = await post(base + RESPONSES, STREAM_BODY, { accept: 'text/event-stream' })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    // The gateway has not sent its second event yet: the first came through alone.
    expect(first).toBe(frame(1))
    more.resolve()
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value)
    expect(rest).toBe(frame(2))
    expect(upstream.requests[0]!.headers.accept).toBe('text/event-stream')
  })

  it('aborts the gateway call when the caller goes away mid-stream', async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(frame(1)) // and never ends
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    const caller = new AbortController()
    const res = await fetch(base + RESPONSES, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(STREAM_BODY), signal: caller.signal })
    await res.body!.getReader().read()
    caller.abort()
    expect(await upstream.requests[0]!.closed).toBe(true)
  })

  it('sends the key upstream only, and masks the whole key in every reply: error bodies, streams, JSON, headers', async () => {
    const upstream = await startUpstream(async (seen, res) => {
      if (seen.url === RESPONSES && seen.body.includes('"stream":true')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        // The key split across chunks, mid-line.
        const line = frame(1, ` you sent ${KEY}`)
        const at = line.indexOf(KEY) + 10
        res.write(line.slice(0, at))
        await new Promise((resolve) => setTimeout(resolve, 5))
        return void res.end(line.slice(at))
      }
      if (seen.url === RESPONSES) return json(res, 200, { echo: seen.headers.authorization }, { 'x-request-id': `req-${KEY}` })
      json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}. Half of it: ${KEY.slice(0, 12)}.` } }, { 'www-authenticate': `Bearer realm="${KEY}"` })
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    const replies = [await post(base + RESPONSES, { model: 'm' }), await post(base + RESPONSES, STREAM_BODY), await post(base + T2V, { prompt: 'A kite' })]
    expect(upstream.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(replies.map((r) => r.status)).toEqual([200, 200, 401])
    expect(replies[2]!.headers.get('www-authenticate')).toBeNull()
    for (const reply of replies) {
      const text = await reply.text()
      const headers = JSON.stringify([...reply.headers])
      expect(text).toContain('[redacted]')
      expect(text).not.toContain(KEY)
      expect(headers).not.toContain(KEY)
    }
    // Only the whole key is masked in the relay's replies (see keyOracle.test.ts): a stretch of it
    // that the gateway echoes passes as it came.
    expect(await (await post(base + T2V, { prompt: 'A kite' })).text()).toContain(`Half of it: ${KEY.slice(0, 12)}.`)
  })

  it('does not pass the caller’s own Authorization or cookies on', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url, headers: { 'x-team': 'web' } })
    await post(base + RESPONSES, { model: 'm' }, { authorization: 'Bearer from-the-browser', cookie: 'session=1' })
    const { headers } = upstream.requests[0]!
    expect(headers.authorization).toBe(`Bearer ${KEY}`)
    expect(headers.cookie).toBeUndefined()
    expect(headers['x-team']).toBe('web')
  })

  it('passes Idempotency-Key on, and refuses a malformed one', async () => {
    const sim = await simulator()
    const { base } = await startProxy({ baseUrl: sim.url })
    expect((await post(base + T2V, { prompt: 'A kite' }, { 'idempotency-key': 'key-123' })).status).toBe(202)
    expect(sim.requests.at(-1)).toMatchObject({ method: 'POST', path: T2V, idempotencyKey: 'key-123' })
    const bad = await post(base + T2V, { prompt: 'A kite' }, { 'idempotency-key': 'two words' })
    expect(bad.status).toBe(400)
    expect((await errorOf(bad)).code).toBe('invalid_idempotency_key')
    expect(sim.requests).toHaveLength(1)
  })

  it('answers 503 when the gateway cannot be reached (nothing was sent) and 502 for a redirect', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const unreachable = await startProxy({ baseUrl: `http://127.0.0.1:${port}` })
    const res = await post(unreachable.base + RESPONSES, { model: 'm' })
    expect(res.status).toBe(503)
    expect((await errorOf(res)).code).toBe('gateway_unreachable')

    const upstream = await startUpstream((_, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/' })
      res.end()
    })
    const redirecting = await startProxy({ baseUrl: upstream.url })
    const moved = await post(redirecting.base + RESPONSES, { model: 'm' })
    expect(moved.status).toBe(502)
    expect(moved.headers.get('location')).toBeNull()
  })

  it('refuses a gateway reply over maxReplyBytes, and passes error statuses on with Retry-After', async () => {
    const upstream = await startUpstream((seen, res) =>
      seen.url === RESPONSES ? json(res, 200, { text: 'x'.repeat(5_000) }) : json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '7' }),
    )
    const { base } = await startProxy({ baseUrl: upstream.url, maxReplyBytes: 1_000 })
    expect((await post(base + RESPONSES, { model: 'm' })).status).toBe(502)
    const limited = await post(base + T2V, { prompt: 'A kite' })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect((await errorOf(limited)).message).toBe('slow down')
  })

  it('serves the client end to end: a streamed response chained into a video task, errors read as the gateway’s', async () => {
    const sim = await simulator({ timeScale: { pendingMs: 20, processingMs: 20 } })
    const { base } = await startProxy({ baseUrl: sim.url, models: ['gpt-4.1-mini', 'vendor-b/t2v-spark'] })
    // In Node the client wants a key; this one is the caller's and goes no further than the proxy.
    const client = createClient({ baseUrl: base, apiKey: 'caller-side-placeholder', taskPoll: { initialDelayMs: 10, factor: 1, maxDelayMs: 10, jitter: 0 } })
    const prompt = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'A video about a kite', stream: true }).pipe(outputText()))
    expect(prompt).toMatch(/kite/)
    const urls = await lastValueFrom(textToVideo$(client, { prompt, size: '1280*720', duration: 5 }).pipe(taskUrls(), toArray()))
    expect(urls[0]![0]).toMatch(/\.mp4/)
    const refused = await lastValueFrom(responses$(client, { model: 'o3-pro', input: 'hi' })).catch((e: unknown) => e)
    expect(isHttpError(refused) && refused.status).toBe(403)
    expect(String(refused)).toMatch(/not allowed/)
  })
})
