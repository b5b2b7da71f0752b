import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import util from 'node:util'
import { createParser } from 'eventsource-parser'
import { lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { observedGate, type RequestEvent } from '../../src/hooks.js'
import { responses$ } from '../../src/responses$.js'
import { createGatewayHandler } from '../../src/server/handler.js'
import { nodeListener } from '../../src/server/node.js'
import type { UsageEvent } from '../../src/usage.js'
import { escaped, leaks, SECRET, startMaskingGateway } from './maskingGateway.js'

/** Every string JSON.parse makes of `json`. */
function decoded(json: string): string {
  const out: string[] = []
  JSON.parse(json, (_key, value: unknown) => {
    if (typeof value === 'string') out.push(value)
    return value
  })
  return out.join('\n')
}

let gateway: Awaited<ReturnType<typeof startMaskingGateway>>
let relay: Server
let relayUrl: string

beforeAll(async () => {
  gateway = await startMaskingGateway()
  const handler = createGatewayHandler({ baseUrl: gateway.url, apiKey: SECRET, authorize: () => true })
  relay = createServer(nodeListener(handler))
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/api/rxgate/vendors/vendor-a/v1/responses`
})

afterAll(async () => {
  relay.closeAllConnections()
  await new Promise((resolve) => relay.close(resolve))
  await gateway.close()
})

const call = (body: Record<string, unknown>, accept = 'application/json') =>
  fetch(relayUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) })

describe('the relay in front of a gateway that echoes the key escaped', () => {
  it('the hostile gateway is sent the key and echoes it where only a JSON decoder shows it', () => {
    const body = `{"m":"${escaped(SECRET)}"}`
    expect(leaks(body)).toBe(false)
    expect(leaks(decoded(body))).toBe(true)
  })

  it('masks a 200 JSON reply whose model is the escaped key, leaving valid JSON', async () => {
    const res = await call({ model: 'ok', input: 'hi' })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(gateway.seen).toContain(`Bearer ${SECRET}`)
    expect(leaks(text)).toBe(false)
    expect(leaks(decoded(text))).toBe(false)
    expect(JSON.parse(text)).toMatchObject({ id: 'resp_1', model: expect.stringContaining('[redacted]') })
  })

  it('masks a 401 error body that quotes the key, every character escaped', async () => {
    const res = await call({ model: 'deny', input: 'hi' })
    expect(res.status).toBe(401)
    const text = await res.text()
    expect(leaks(decoded(text))).toBe(false)
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'invalid_api_key', message: 'Incorrect API key provided: [redacted]' } })
  })

  it('masks every SSE data line, the error event included, when key and escapes are split across chunks', async () => {
    const res = await call({ model: 'ok', input: 'hi', stream: true }, 'text/event-stream')
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const datas: string[] = []
    const parser = createParser({ onEvent: (e) => datas.push(e.data) })
    parser.feed(await res.text())
    expect(datas).toHaveLength(2)
    for (const data of datas) expect(leaks(decoded(data)), data).toBe(false)
    expect(JSON.parse(datas[1]!)).toMatchObject({ type: 'error', message: 'key [redacted] is not allowed' })
  })
})

describe('the client talking to that gateway directly', () => {
  const client = (usage: UsageEvent[] = []) => createClient({ baseUrl: gateway.url, apiKey: SECRET, hooks: { onUsage: (e) => usage.push(e) } })
  const failure = async (body: Record<string, unknown>) => {
    try {
      await lastValueFrom(responses$(client(), body as never))
    } catch (error) {
      return error
    }
    throw new Error('the call did not fail')
  }
  const rendered = (err: unknown) => [String(err), JSON.stringify(err), util.inspect(err, { depth: null, showHidden: true })].join('\n')

  it('onUsage hears the model with the key masked', async () => {
    const usage: UsageEvent[] = []
    await lastValueFrom(responses$(client(usage), { model: 'ok', input: 'hi' }))
    expect(usage).toHaveLength(1)
    expect(usage[0]!.model).toBe('[redacted]')
    expect(leaks(util.inspect(usage))).toBe(false)
  })

  it('a 401 quoting the escaped key fails with an HttpError that holds no piece of it', async () => {
    const err = await failure({ model: 'deny', input: 'hi' })
    expect(err).toMatchObject({ name: 'HttpError', status: 401 })
    expect(leaks(rendered(err)), rendered(err)).toBe(false)
  })

  it('an SSE error event quoting the key, split across chunks, fails with an error that holds no piece of it', async () => {
    const err = await failure({ model: 'ok', input: 'hi', stream: true })
    expect(err).toMatchObject({ name: 'ResponseFailedError' })
    expect((err as Error).message).toContain('[redacted]')
    expect(leaks(rendered(err)), rendered(err)).toBe(false)
  })

  it.each([
    ['a Headers', (init: RequestInit) => ({ headers: new Headers(init.headers) })],
    ['a Request', (init: RequestInit) => ({ request: new Request(`${gateway.url}/v1?k=${SECRET}`, { method: 'POST', headers: init.headers }) })],
    ['a Map of headers', (init: RequestInit) => ({ headers: new Map(new Headers(init.headers)) })],
  ])('a fetch of the user\'s own that fails with a cause holding %s (the request\'s headers) fails with an error that holds no piece of the key', async (_name, held) => {
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }, held(init ?? {})) })
    }
    const failing = createClient({ baseUrl: gateway.url, apiKey: SECRET, fetch: fetch as typeof globalThis.fetch, retry: false })
    let err: unknown
    await lastValueFrom(responses$(failing, { model: 'ok', input: 'hi' })).catch((e: unknown) => (err = e))
    expect(err).toBeDefined()
    expect(util.inspect(err, { depth: null })).toContain('[redacted]')
    expect(leaks(rendered(err)), rendered(err)).toBe(false)
  })
})

describe('hooks', () => {
  it('onRequest hears a path with the key masked (a path may hold an id the gateway chose)', async () => {
    const seen: RequestEvent[] = []
    const gate = observedGate({ onRequest: (e) => seen.push(e) }, SECRET, undefined)
    const pass = await gate.enter({ method: 'GET', path: `/vendors/v/tasks/${SECRET.replace('/', '-')}x?q=1` }, new AbortController().signal)
    pass.done(undefined)
    expect(seen[0]!.path).toBe('/vendors/v/tasks/sk-live-[redacted]x')
  })
})
