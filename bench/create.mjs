// Non-stream create: `total` response creations, `concurrency` in flight, after
// a warm-up, by rxgate, the peers that have a non-stream call (openai, the AI
// SDK) and the floor (undici request + JSON.parse).
import { createServer } from 'node:http'
import { lastValueFrom } from 'rxjs'
import { Agent, request } from 'undici'
import { createClient, responses$ } from '../dist/index.js'
import { interleave, pool, rate, ratios } from './measure.mjs'
import { createPeers } from './peers.mjs'

const TEXT = 'Hello there, bench.'
const REPLY = JSON.stringify({
  id: 'resp_bench',
  object: 'response',
  created_at: 1700000000,
  model: 'bench',
  status: 'completed',
  output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: TEXT, annotations: [] }] }],
  output_text: TEXT,
  usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
})

function startServer() {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(REPLY))
  })
  server.keepAliveTimeout = 10_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) }),
    ),
  )
}

export async function createBench({ total = 5_000, concurrency = 16, rounds = 5 } = {}) {
  const server = await startServer()
  const client = createClient({ baseUrl: server.url, apiKey: 'bench-key' })
  const agent = new Agent({ keepAliveTimeout: 10_000 })
  const body = { model: 'm', input: 'hi' }
  const expect = (text) => {
    if (text !== TEXT) throw new Error('wrong reply')
  }
  const run = (call) => () => rate(total, () => pool(total, concurrency, async () => expect(await call())))
  const contenders = {
    floor: run(async () => {
      const res = await request(`${server.url}/vendors/vendor-a/v1/responses`, {
        method: 'POST',
        headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher: agent,
      })
      return JSON.parse(await res.body.text()).output_text
    }),
    rxgate: run(async () => (await lastValueFrom(responses$(client, body))).output_text),
    ...Object.fromEntries(Object.entries(createPeers(server.url)).map(([name, call]) => [name, run(call)])),
  }
  try {
    const results = await interleave(contenders, rounds)
    const versus = (name) => ratios(results.rxgate, results[name])
    return { results, floor: versus('floor'), peers: Object.fromEntries(Object.keys(results).filter((n) => n !== 'floor' && n !== 'rxgate').map((n) => [n, versus(n)])) }
  } finally {
    await server.close()
    await agent.close()
  }
}
