// Non-stream create: `total` response creations, `concurrency` in flight, after
// a warm-up, by rxgate, the openai package, and the floor (undici request + JSON.parse).
import { createServer } from 'node:http'
import OpenAI from 'openai'
import { lastValueFrom } from 'rxjs'
import { Agent, request } from 'undici'
import { createGateway } from '../dist/index.js'
import { interleave, pool, rate } from './measure.mjs'

const REPLY = JSON.stringify({
  id: 'resp_bench',
  object: 'response',
  created_at: 1700000000,
  model: 'bench',
  status: 'completed',
  output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello there, bench.', annotations: [] }] }],
  output_text: 'Hello there, bench.',
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

export async function createBench({ total = 5_000, concurrency = 16, rounds = 3 } = {}) {
  const server = await startServer()
  const gateway = createGateway({ baseUrl: server.url, apiKey: 'bench-key' })
  const openai = new OpenAI({ baseURL: `${server.url}/vendors/vendor-a/v1`, apiKey: 'bench-key', maxRetries: 0 })
  const agent = new Agent({ keepAliveTimeout: 10_000 })
  const body = { model: 'm', input: 'hi' }
  const expect = (text) => {
    if (text !== 'Hello there, bench.') throw new Error('wrong reply')
  }
  const contenders = {
    floor: () =>
      rate(total, () =>
        pool(total, concurrency, async () => {
          const res = await request(`${server.url}/vendors/vendor-a/v1/responses`, {
            method: 'POST',
            headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
            body: JSON.stringify(body),
            dispatcher: agent,
          })
          expect(JSON.parse(await res.body.text()).output_text)
        }),
      ),
    rxgate: () => rate(total, () => pool(total, concurrency, async () => expect((await lastValueFrom(gateway.responses$(body))).output_text))),
    openai: () => rate(total, () => pool(total, concurrency, async () => expect((await openai.responses.create(body)).output_text))),
  }
  try {
    return await interleave(contenders, rounds)
  } finally {
    await server.close()
    await agent.close()
  }
}
