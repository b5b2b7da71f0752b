// Open streams: `streams` concurrent idle streams (each got its first event and
// waits) against a server in another process. Heap per open stream for rxgate
// (responses$ with stream: true, default transport) beside the floor (undici
// request + eventsource-parser reading each body).
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { createParser } from 'eventsource-parser'
import { Agent, request } from 'undici'
import { createClient, responses$ } from '../dist/index.js'
import { BODY, HEADERS } from './sseServer.mjs'

const gc = globalThis.gc ?? (() => {})
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed)

export async function streamsBench({ streams = 10_000 } = {}) {
  const child = fork(new URL('./streamServer.mjs', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const [{ port }] = await once(child, 'message')
  const base = `http://127.0.0.1:${port}`
  const openAtServer = async () => (child.send('count'), (await once(child, 'message'))[0].open)
  const waitOpen = async (n) => {
    for (let i = 0; i < 3_000 && (await openAtServer()) !== n; i++) await sleep(10)
    return openAtServer()
  }
  try {
    // The floor: each stream read by undici and the parser, until aborted.
    const agent = new Agent()
    let before = heap()
    const controllers = []
    let firstEvents = 0
    for (let i = 0; i < streams; i++) {
      const controller = new AbortController()
      controllers.push(controller)
      request(`${base}/vendors/vendor-a/v1/responses`, { method: 'POST', headers: HEADERS, body: BODY, dispatcher: agent, signal: controller.signal })
        .then(async (res) => {
          const decoder = new TextDecoder()
          const parser = createParser({ onEvent: (e) => JSON.parse(e.data) && firstEvents++ })
          for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }))
        })
        .catch(() => {})
    }
    const floorOpen = await waitOpen(streams)
    while (firstEvents < streams) await sleep(10)
    const floorHeap = (heap() - before) / streams
    for (const c of controllers) c.abort()
    await waitOpen(0)
    await agent.close()

    const client = createClient({ baseUrl: base, apiKey: 'bench-key' })
    before = heap()
    let events = 0
    const subscriptions = Array.from({ length: streams }, () =>
      responses$(client, { model: 'm', input: 'x', stream: true }).subscribe({ next: () => events++, error: (e) => console.error(e.message) }),
    )
    const rxgateOpen = await waitOpen(streams)
    while (events < streams) await sleep(10)
    const rxgateHeap = (heap() - before) / streams
    for (const s of subscriptions) s.unsubscribe()
    await waitOpen(0)
    return { streams, floorOpen, rxgateOpen, floorHeap, rxgateHeap, ratio: rxgateHeap / floorHeap }
  } finally {
    child.send('stop')
    await once(child, 'exit')
  }
}
