import { describe, expect, it } from 'vitest'
import { AbortSwitch } from '../../src/transport/abort.js'
import { startServer, within } from '../helpers/server.js'

// The Node transport through the dispatcher Node's own `fetch` makes for
// itself (of the undici bundled with Node: 6 on Node 20 and 22), as the
// relay uses it when the app called `fetch` before anything loaded the
// library's undici. Node's `fetch` runs first, before this file loads undici:
// loading it would set a global dispatcher of its own.
await fetch('data:,')
const own = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')]
const { Dispatcher } = await import('undici')
const { undiciTransport } = await import('../../src/transport/undiciTransport.js')

describe('undiciTransport through the dispatcher of Node’s own fetch', () => {
  it('reads headers, a body read through its pauses, and an abort the server sees', async () => {
    const server = await startServer(async (req, res) => {
      if (req.path === '/json') {
        res.setHeader('X-Seen', ['one', 'two'])
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
        return
      }
      res.writeHead(200)
      const part = Buffer.alloc(16 * 1024, 0x61)
      for (let i = 0; i < 64; i++) if (!res.write(part)) await new Promise((r) => res.once('drain', r))
      if (req.path === '/big') res.end()
    })
    expect(own).toBeDefined()
    expect(own).not.toBeInstanceOf(Dispatcher)
    const transport = undiciTransport({ dispatcher: own as InstanceType<typeof Dispatcher> })
    const get = (path: string, signal = new AbortSwitch()) => transport({ method: 'GET', url: server.url + path, headers: {}, signal })

    const json = await get('/json')
    expect([json.status, json.header('x-seen'), json.header('content-type'), await json.text()]).toEqual([200, 'one, two', 'application/json', '{"ok":true}'])

    let bytes = 0
    for await (const chunk of (await get('/big')).body) {
      bytes += chunk.byteLength
      await new Promise((r) => setImmediate(r))
    }
    expect(bytes).toBe(1024 * 1024)

    const signal = new AbortSwitch()
    const endless = await get('/endless', signal)
    const reading = endless.text()
    signal.abort(new Error('left'))
    await expect(reading).rejects.toThrow('left')
    await within((await server.request(3)).closedEarly, 2_000, 'the server to see the close')
  })
})
