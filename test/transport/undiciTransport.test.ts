import { AsyncLocalStorage } from 'node:async_hooks'
import { Agent, MockAgent, type Dispatcher } from 'undici'
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
    await expect(reading).rejects.toThrow('left')
  })
})


describe('undiciTransport: the reply read straight from the dispatcher', () => {
  const get = (url: string, signal = new AbortSwitch(), stream = false) => undiciTransport()({ method: 'GET', url, headers: {}, signal, stream })

  it("hands a stream's chunks to each reader in its own async context, not in that of the socket's first request", async () => {
    // Each body is sent only once its reader is reading, so every chunk comes from the socket.
    let go!: () => void
    const ports: number[] = []
    const server = await startServer(async (req, res, raw) => {
      ports.push(raw.socket.remotePort!)
      const reading = new Promise<void>((resolve) => (go = resolve))
      startSse(res)
      await reading
      res.end(`data: {"type":"response.completed","path":"${req.path}"}\n\n`)
    })
    const transport = undiciTransport()
    const context = new AsyncLocalStorage<string>()
    const readIn = (name: string) =>
      context.run(name, async () => {
        const stores: (string | undefined)[] = []
        const res = await transport({ method: 'GET', url: `${server.url}/${name}`, headers: {}, signal: new AbortSwitch(), stream: true })
        const read = res.read!(() => stores.push(context.getStore()))
        go()
        await read
        return stores
      })
    expect(await readIn('first')).toEqual(['first'])
    // One turn for the socket to go back to the pool: the second stream goes over the one the first opened.
    await new Promise((r) => setImmediate(r))
    expect(await readIn('second')).toEqual(['second'])
    expect(ports).toHaveLength(2)
    expect(ports[1]).toBe(ports[0])
  })

  it('pulls a 1 MB body whole and in order through the socket\'s pauses (64 KB unread pause it; taking them lets it go on)', async () => {
    const part = Buffer.alloc(16 * 1024)
    const server = await startServer(async (_req, res) => {
      res.writeHead(200)
      for (let i = 0; i < 64; i++) {
        part.fill(i)
        if (!res.write(Buffer.from(part))) await new Promise((r) => res.once('drain', r))
      }
      res.end()
    })
    const res = await get(`${server.url}/big`)
    const seen: number[] = []
    let bytes = 0
    for await (const chunk of res.body) {
      bytes += chunk.byteLength
      seen.push(chunk[0]!)
      await new Promise((r) => setImmediate(r))
    }
    expect(bytes).toBe(64 * part.byteLength)
    expect([...new Set(seen)]).toEqual(Array.from({ length: 64 }, (_, i) => i))
  })

  it('stops a pulled body that its reader leaves: the request is aborted and the server sees the close', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200)
      res.write('first')
    })
    const res = await get(`${server.url}/endless`)
    for await (const chunk of res.body) {
      expect(new TextDecoder().decode(chunk)).toBe('first')
      break
    }
    await within((await server.request(1)).closedEarly, 2_000, 'the server to see the close')
  })

  it('rejects at once when aborted while waiting for a connection, and that request is never sent', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const server = await startServer(async (_req, res) => {
      await held
      sendJson(res, 200, {})
    })
    const transport = undiciTransport({ maxConnections: 1 })
    const first = transport({ method: 'GET', url: `${server.url}/held`, headers: {}, signal: new AbortSwitch() })
    await server.request(1)
    const signal = new AbortSwitch()
    const waiting = transport({ method: 'GET', url: `${server.url}/waiting`, headers: {}, signal })
    signal.abort(new Error('left while queued'))
    await expect(within(waiting, 2_000, 'the rejection')).rejects.toThrow('left while queued')
    release()
    expect((await first).status).toBe(200)
    // Queued after the aborted one on the one connection: had that been sent, it would have arrived first.
    const after = await transport({ method: 'GET', url: `${server.url}/after`, headers: {}, signal: new AbortSwitch() })
    expect(after.status).toBe(200)
    expect(server.requests.map((r) => r.path)).toEqual(['/held', '/after'])
  })

  it('gives each header by its lower-case name, repeated ones joined, and nothing for names an object inherits', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('X-Seen', ['one', 'two'])
      res.setHeader('Retry-After', '3')
      res.writeHead(200).end('{}')
    })
    const res = await get(`${server.url}/h`)
    expect(res.header('x-seen')).toBe('one, two')
    expect(res.header('retry-after')).toBe('3')
    expect(res.header('constructor')).toBeUndefined()
    expect(res.header('__proto__')).toBeUndefined()
    expect(await res.text()).toBe('{}')
  })

  it('reads headers as a handler composed into the dispatcher passes them on: names in any case, values as lists', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'X-Seen': 'one' }).end('{}')
    })
    // An interceptor written for undici's current handler API, adding headers on the way.
    const adding: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
      dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onResponseStart: (controller, status, headers, message) => handler.onResponseStart?.(controller, status, { ...headers, 'X-SEEN': 'two', 'X-Added': ['a', 'b'] }, message),
        onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
        onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      })
    const agent = new Agent()
    const res = await undiciTransport({ dispatcher: agent.compose(adding) })({ method: 'GET', url: `${server.url}/h`, headers: {}, signal: new AbortSwitch() })
    expect(res.header('x-seen')).toBe('one, two')
    expect(res.header('x-added')).toBe('a, b')
    expect(await res.text()).toBe('{}')
    await agent.close()
  })

  it('ends the push read with an error when the connection is cut in the middle of the body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' })
      res.write('only part')
      setImmediate(() => res.socket?.destroy())
    })
    const res = await get(`${server.url}/cut`)
    const chunks: string[] = []
    await expect(within(res.read!((c) => chunks.push(new TextDecoder().decode(c))), 2_000, 'the read to fail')).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(chunks.join('')).toBe('only part')
  })
})
