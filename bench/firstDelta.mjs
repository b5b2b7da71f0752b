// Time to first delta: a server that answers with the first text delta at
// once; each contender's time from the call to its first delta, over many
// interleaved calls. Reported as each one's overhead over the floor (undici
// request + eventsource-parser + JSON.parse).
import { createParser } from 'eventsource-parser'
import { Agent, request } from 'undici'
import { createClient, responses$ } from '../dist/index.js'
import { median } from './measure.mjs'
import { streamPeers } from './peers.mjs'
import { BODY, HEADERS, sseBody, startSseServer } from './sseServer.mjs'

const timeToFirst = async (read) => {
  const started = performance.now()
  let first = 0
  await read(() => {
    first ||= performance.now()
  })
  return (first - started) * 1000 // µs
}

export async function firstDeltaBench({ calls = 300 } = {}) {
  const { body } = sseBody(3)
  const server = await startSseServer(body)
  const client = createClient({ baseUrl: server.url, apiKey: 'bench-key' })
  const agent = new Agent()
  const peers = streamPeers(server.url)
  const contenders = {
    floor: async (onDelta) => {
      const res = await request(`${server.url}/vendors/vendor-a/v1/responses`, { method: 'POST', headers: HEADERS, body: BODY, dispatcher: agent })
      const decoder = new TextDecoder()
      const parser = createParser({
        onEvent: (e) => {
          const event = JSON.parse(e.data)
          if (event.type === 'response.output_text.delta') onDelta(event.delta)
        },
      })
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }))
    },
    rxgate: (onDelta) =>
      new Promise((resolve, reject) =>
        responses$(client, { model: 'm', input: 'x', stream: true }).subscribe({
          next: (event) => event.type === 'response.output_text.delta' && onDelta(event.delta),
          error: reject,
          complete: resolve,
        }),
      ),
    ...Object.fromEntries(Object.entries(peers).map(([name, read]) => [name, (onDelta) => read((d) => (onDelta(d), false))])),
  }
  const times = Object.fromEntries(Object.keys(contenders).map((n) => [n, []]))
  try {
    for (const read of Object.values(contenders)) for (let i = 0; i < 20; i++) await timeToFirst(read) // warm up
    for (let i = 0; i < calls; i++) for (const [name, read] of Object.entries(contenders)) times[name].push(await timeToFirst(read))
    const floor = median(times.floor)
    return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, { medianUs: median(list), overUs: median(list) - floor }]))
  } finally {
    await server.close()
    await agent.close()
  }
}
