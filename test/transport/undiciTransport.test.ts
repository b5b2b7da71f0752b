import { MockAgent } from 'undici'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { sse$ } from '../../src/streams/sse$.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import { json$ } from '../../src/transport/json$.js'
import { undiciTransport } from '../../src/transport/undiciTransport.js'
import { observe } from '../helpers/collect.js'
import { KEY } from '../helpers/fixtures.js'
import { sendJson, startServer, startSse, within } from '../helpers/server.js'

// What only the Node transport does: two connection pools. JSON requests
// share at most `maxConnections`; streams have their own, unlimited.

describe('undiciTransport pools', () => {
  it('keeps JSON requests beyond maxConnections waiting until a connection is free', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const order: string[] = []
    const server = await startServer(async (req, res) => {
      order.push(`arrived ${req.path}`)
      if (req.path === '/slow') await held
      sendJson(res, 200, { path: req.path })
      order.push(`answered ${req.path}`)
    })
    const client = createClient({ baseUrl: server.url, apiKey: KEY, maxConnections: 1 })
    const slow = observe(json$(client, { method: 'GET', path: '/slow' }))
    await server.request(1)
    const queued = observe(json$(client, { method: 'GET', path: '/queued' }))
    await new Promise((r) => setTimeout(r, 5))
    release()
    expect((await within(queued.done, 2_000, 'the queued request')).values).toEqual([{ path: '/queued' }])
    expect((await slow.done).values).toEqual([{ path: '/slow' }])
    expect(order).toEqual(['arrived /slow', 'answered /slow', 'arrived /queued', 'answered /queued'])
  })

  it('does not count open streams against maxConnections: a JSON request goes through beside them', async () => {
    const server = await startServer((req, res) => {
      if (req.path === '/stream') return startSse(res)
      sendJson(res, 200, { ok: true })
    })
    const client = createClient({ baseUrl: server.url, apiKey: KEY, maxConnections: 1 })
    const events = { decode: (j: unknown) => j, isLast: () => false }
    const streams = [observe(sse$(client, { method: 'GET', path: '/stream' }, events)), observe(sse$(client, { method: 'GET', path: '/stream' }, events))]
    await server.request(2)
    const { values } = await within(observe(json$(client, { method: 'GET', path: '/json' })).done, 2_000, 'the JSON request')
    expect(values).toEqual([{ ok: true }])
    for (const s of streams) s.subscription.unsubscribe()
  })

  it('sends streams and JSON requests alike through a dispatcher it is given', async () => {
    const origin = 'http://127.0.0.1:9'
    const mock = new MockAgent()
    mock.disableNetConnect()
    mock.get(origin).intercept({ path: '/stream', method: 'GET' }).reply(200, 'data: {}\n\n')
    mock.get(origin).intercept({ path: '/json', method: 'GET' }).reply(200, '{"ok":true}')
    const transport = undiciTransport({ dispatcher: mock })
    const ask = (path: string, stream: boolean) => transport({ method: 'GET', url: origin + path, headers: {}, signal: new AbortSwitch(), stream })
    expect(await (await ask('/stream', true)).text()).toBe('data: {}\n\n')
    expect(await (await ask('/json', false)).text()).toBe('{"ok":true}')
    await mock.close()
  })
})

describe('undiciTransport textUpTo: a body of unknown length, read up to a limit', () => {
  const chunked = async (parts: (string | Uint8Array)[], endless = false) => {
    const server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      for (const part of parts) {
        res.write(part)
        await new Promise((r) => setImmediate(r))
      }
      if (!endless) res.end()
    })
    const res = await undiciTransport()({ method: 'GET', url: `${server.url}/r`, headers: {}, signal: new AbortSwitch() })
    expect(res.header('content-length')).toBeUndefined()
    return { server, res }
  }

  it('reads a whole body within the limit, multibyte characters split across writes and a leading BOM dropped as text() drops it', async () => {
    const bytes = new TextEncoder().encode('\uFEFF{"t":"Café — 🚀"}')
    const { res } = await chunked([bytes.subarray(0, 5), bytes.subarray(5, 11), bytes.subarray(11, 19), bytes.subarray(19)])
    expect(await res.textUpTo!(1_000)).toEqual({ text: '{"t":"Café — 🚀"}', whole: true })
  })

  it('reads a body of exactly the limit whole', async () => {
    const { res } = await chunked(['a'.repeat(600), 'b'.repeat(400)])
    expect(await res.textUpTo!(1_000)).toEqual({ text: 'a'.repeat(600) + 'b'.repeat(400), whole: true })
  })

  it('stops an endless body at the limit: its first `limit` bytes, not whole, and the server sees the close', async () => {
    const { server, res } = await chunked(Array.from({ length: 50 }, () => 'z'.repeat(1_024)), true)
    expect(await res.textUpTo!(3_000)).toEqual({ text: 'z'.repeat(3_000), whole: false })
    await within((await server.request(1)).closedEarly, 2_000, 'the server to see the close')
  })

  it('rejects when the request is aborted in the middle of the body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200)
      res.write('{"half":')
    })
    const signal = new AbortSwitch()
    const res = await undiciTransport()({ method: 'GET', url: `${server.url}/r`, headers: {}, signal })
    const reading = res.textUpTo!(1_000)
    signal.abort(new Error('left'))
    await expect(reading).rejects.toThrow()
  })
})

