import { gzipSync } from 'node:zlib'
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServer, request } from 'node:http'
import { createGatewayHandler, nodeListener } from '../../src/server/index.js'
import { errorOf, fakeFetch, json, KEY, listen, post, RESPONSES, startProxy, startUpstream } from './helpers.js'

/** Where undici keeps the process's global dispatcher. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

/** POSTs JSON through node:http (no undici involved) and resolves with the status, once the reply is read. */
function statusOf(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const STREAM_BODY = { model: 'm', input: 'hi', stream: true }

describe('nodeListener without a fetch option: the gateway through undici’s dispatcher', () => {
  it('asks for the reply uncompressed, and refuses a compressed one without passing a byte of it on', async () => {
    const upstream = await startUpstream((seen, res) => {
      const body = gzipSync(`data: {"message":"you sent ${KEY}"}\n\n`)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip', 'content-length': body.byteLength })
      res.end(body)
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    const res = await post(base + RESPONSES, STREAM_BODY, { accept: 'text/event-stream' })
    expect(upstream.requests[0]!.headers['accept-encoding']).toBe('identity')
    expect(res.status).toBe(502)
    expect(await errorOf(res)).toEqual({
      message: "The gateway's reply is compressed although none was asked for; this server passes on only what it can mask.",
      type: 'server_error',
      param: null,
      code: 'gateway_reply_encoded',
    })
  })

  it('goes through undici’s global dispatcher when the app set one, as fetch would', async () => {
    const upstream = await startUpstream((_, res) => json(res, 200, { ok: true }))
    const seen: string[] = []
    class Watching extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        seen.push(`${options.method} ${options.path}`)
        return super.dispatch(options, handler)
      }
    }
    const before = getGlobalDispatcher()
    const watching = new Watching()
    setGlobalDispatcher(watching)
    onTestFinished(async () => {
      setGlobalDispatcher(before)
      await watching.close()
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    expect((await post(base + RESPONSES, { model: 'm' })).status).toBe(200)
    expect(seen).toContain(`POST ${RESPONSES}`)
  })

  it('leaves the gateway to a fetch option when one is given', async () => {
    const gateway = fakeFetch(() => new Response('data: 1\n\n', { headers: { 'content-type': 'text/event-stream' } }))
    const { base } = await startProxy({ baseUrl: 'https://gateway.example', fetch: gateway.fetch })
    const res = await post(base + RESPONSES, STREAM_BODY, { accept: 'text/event-stream' })
    expect(await res.text()).toBe('data: 1\n\n')
    expect(gateway.calls.map((c) => c.url)).toEqual([`https://gateway.example${RESPONSES}`])
  })

  it('passes a reply marked identity (in any case) on, and refuses every other coding, one that only holds the word included', async () => {
    const upstream = await startUpstream((seen, res) => json(res, 200, { ok: true }, { 'content-encoding': seen.headers['x-coding'] as string }))
    const statusWith = async (coding: string) => {
      const handler = createGatewayHandler({ baseUrl: upstream.url, apiKey: KEY, allowUnauthenticated: true, headers: { 'x-coding': coding }, onError: () => {} })
      const url = await listen(createServer(nodeListener(handler)))
      return (await post(`${url}/api/rxgate${RESPONSES}`, { model: 'm' })).status
    }
    for (const coding of ['identity', 'IDENTITY', 'Identity ']) expect(await statusWith(coding), coding).toBe(200)
    for (const coding of ['gzip, identity', 'identity, gzip', 'xidentity', 'identityx', 'x identity']) expect(await statusWith(coding), coding).toBe(502)
  })

  it('gives up a redirect’s body unread: the gateway’s connection is closed, not left waiting', async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/', 'content-type': 'text/plain' })
      // A body that never ends: only giving it up frees the connection.
      res.write('moved')
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    const res = await post(base + RESPONSES, { model: 'm' })
    expect([res.status, (await errorOf(res)).code]).toEqual([502, 'gateway_redirect'])
    expect(await upstream.requests[0]!.closed).toBe(true)
  }, 5_000)

  it('keeps one agent of its own where no global dispatcher is set: calls reuse its connection', async () => {
    const ports: number[] = []
    const gateway = await listen(createServer((req, res) => (ports.push(req.socket.remotePort!), req.resume(), req.on('end', () => json(res, 200, { ok: true })))))
    const { url } = await startProxy({ baseUrl: gateway })
    const global = globalThis as Record<symbol, unknown>
    const before = global[GLOBAL_DISPATCHER]
    // Node defines it for good (it cannot be deleted), but it may be unset.
    global[GLOBAL_DISPATCHER] = undefined
    onTestFinished(() => void (global[GLOBAL_DISPATCHER] = before))
    // Through node:http, not fetch: fetch would set a global dispatcher again.
    for (let i = 0; i < 2; i++) expect(await statusOf(`${url}/api/rxgate${RESPONSES}`, '{"model":"m"}')).toBe(200)
    expect(global[GLOBAL_DISPATCHER]).toBeUndefined()
    expect(ports).toHaveLength(2)
    expect(ports[1]).toBe(ports[0])
  })
})
