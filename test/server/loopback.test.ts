import { describe, expect, it } from 'vitest'
import { createGatewayHandler } from '../../src/server/index.js'
import { isLoopbackHostname } from '../../src/server/loopback.js'
import { errorOf, fakeFetch, KEY, RESPONSES } from './helpers.js'

/** A relay open to every caller, in front of a recording fake gateway. */
function open() {
  const gateway = fakeFetch()
  return { handler: createGatewayHandler({ baseUrl: 'https://gateway.example', apiKey: KEY, fetch: gateway.fetch, allowUnauthenticated: true }), calls: gateway.calls }
}

/** A response creation as a page at `origin` (none: no Origin header) sends it to `url`'s host. */
function creation(host: string, origin?: string): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(origin !== undefined && { origin }) }
  return new Request(`http://${host}/api/rxgate${RESPONSES}`, { method: 'POST', headers, body: '{"model":"m","input":"hi"}' })
}

describe('isLoopbackHostname', () => {
  it('takes localhost, names under it, 127.0.0.0/8 and [::1], as URL writes them', () => {
    for (const host of ['localhost', 'LOCALHOST:80', 'app.localhost', 'a.b.localhost', '127.0.0.1', '127.255.0.9', '127.0.10.1', '127.0.0.10', '127.100.200.255', '127.1', '0x7f.1', '[::1]', '[0:0:0:0:0:0:0:1]:3000']) {
      expect(isLoopbackHostname(new URL(`http://${host}`).hostname), host).toBe(true)
    }
  })

  it('refuses every other name, those that only look like one included', () => {
    for (const host of ['evil.test', 'localhost.evil.test', 'evillocalhost', '127.0.0.1.evil.test', '128.0.0.1', '0.0.0.0', '10.0.0.1', '[::]', '[::ffff:127.0.0.1]', 'localhost.']) {
      expect(isLoopbackHostname(new URL(`http://${host}`).hostname), host).toBe(false)
    }
    // A URL of another scheme leaves its host as written: one that only ends like an address in 127.0.0.0/8 is not one.
    for (const host of ['x127.0.0.1', 'evil.127.0.0.1', '1127.0.0.1']) expect(isLoopbackHostname(new URL(`foo://${host}`).hostname), host).toBe(false)
  })
})

describe('createGatewayHandler with allowUnauthenticated: true', () => {
  it('answers a call to another host with a JSON 403 naming it, before anything else, and sends nothing', async () => {
    const { handler, calls } = open()
    const reply = await handler(creation('evil.test:4100', 'http://evil.test:4100'))
    expect(reply.status).toBe(403)
    const error = await errorOf(reply)
    expect([error.code, error.type, error.message]).toEqual([
      'host_not_allowed',
      'permission_error',
      'This server lets callers through without authorize only at a loopback address (localhost, 127.0.0.1, [::1]), not at "evil.test:4100".',
    ])
    // Even where it would otherwise be a 404: nothing of the relay shows to such a page.
    expect((await handler(new Request('http://evil.test/other'))).status).toBe(403)
    expect(calls).toEqual([])
  })

  it('answers a call from a page that is not a loopback one with a 403, whatever its Host', async () => {
    const { handler, calls } = open()
    for (const origin of ['http://evil.test:4100', 'null', 'file://', 'chrome-extension://abc', 'chrome-extension://localhost', 'ws://localhost', 'not a url', 'http://127.0.0.1.evil.test']) {
      const reply = await handler(creation('127.0.0.1:4100', origin))
      expect([reply.status, (await errorOf(reply)).message], origin).toEqual([403, `This server lets callers through without authorize only from a loopback page (localhost, 127.0.0.1, [::1]), not from ${JSON.stringify(origin)}.`])
    }
    expect(calls).toEqual([])
  })

  it('lets a loopback call through, from a loopback page or with no Origin', async () => {
    const { handler, calls } = open()
    for (const [host, origin] of [['127.0.0.1:4100', 'http://127.0.0.1:4100'], ['localhost', 'https://localhost:8443'], ['app.localhost:4200', undefined], ['[::1]', 'http://[::1]:4100']]) {
      expect((await handler(creation(host!, origin))).status, `${host} ${origin}`).toBe(200)
    }
    expect(calls).toHaveLength(4)
  })

  it('leaves the host to authorize when there is one', async () => {
    const gateway = fakeFetch()
    const handler = createGatewayHandler({ baseUrl: 'https://gateway.example', apiKey: KEY, fetch: gateway.fetch, authorize: () => true })
    expect((await handler(creation('app.example', 'https://app.example'))).status).toBe(200)
  })
})
