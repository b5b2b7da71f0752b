// Relay throughput: the same loopback stream of `deltas` text deltas (16 KB
// chunks) read directly from the gateway and through rxgate/server's handler
// (which masks the key in every line as it passes), by the same reader
// (undici request + eventsource-parser + JSON.parse, the SSE row's floor), so
// the ratio is what the relay costs a reader. The relay runs in a worker
// thread, as it runs on a server of its own in a real app: the row measures
// whether it keeps pace, not the sum of three programs' work on one thread.
// The gateway writes non-ASCII text as `\uXXXX` escapes, as JSON encoders
// with ASCII output do, so the masking meets escapes in every chunk.
import { createServer } from 'node:http'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { Agent, request } from 'undici'
import { interleave, rate, ratios } from './measure.mjs'
import { BODY, deltaText, sseBody, startSseServer } from './sseServer.mjs'

/** A key long enough to be masked (shorter ones are local placeholders the relay passes as they are). */
const KEY = 'sk-bench-7f3a9c2e51d84b6a0c1d2e3f'
const PATH = '/vendors/vendor-a/v1/responses'

/** `lib`: the module that exports createGatewayHandler and nodeListener (the built rxgate/server by default). */
export async function relayBench({ deltas = 100_000, rounds = 5, lib = new URL('../dist/server/index.js', import.meta.url).href, apiKey = KEY } = {}) {
  const plain = sseBody(deltas)
  const body = Buffer.from(plain.body.toString('utf8').replaceAll('é', '\\u00e9'))
  const { text, events } = plain
  const gateway = await startSseServer(body)
  // The same relay with a key too short to mask (a local placeholder): what the masking itself costs.
  const relays = [apiKey, 'dev'].map((key) => new Worker(new URL(import.meta.url), { workerData: { lib, baseUrl: gateway.url, apiKey: key } }))
  const [relayUrl, unmaskedUrl] = await Promise.all(relays.map((relay) => new Promise((resolve, reject) => relay.once('message', resolve).once('error', reject))))
  const agent = new Agent()
  const read = (base, what) =>
    rate(events, async () => {
      const headers = { authorization: 'Bearer bench-browser', 'content-type': 'application/json', accept: 'text/event-stream' }
      const res = await request(`${base}${PATH}`, { method: 'POST', headers, body: BODY, dispatcher: agent })
      if (res.statusCode !== 200) throw new Error(`${what} answered ${res.statusCode}: ${await res.body.text()}`)
      if ((await deltaText(res.body)) !== text) throw new Error(`${what} read a different text`)
    })
  try {
    const results = await interleave(
      { direct: () => read(gateway.url, 'direct'), relayed: () => read(relayUrl, 'relayed'), unmasked: () => read(unmaskedUrl, 'unmasked') },
      rounds,
    )
    return { events, results, ratio: ratios(results.relayed, results.direct), masking: ratios(results.relayed, results.unmasked) }
  } finally {
    await Promise.all(relays.map((relay) => relay.terminate()))
    await gateway.close()
    await agent.close()
  }
}

// In the worker: serve the handler on 127.0.0.1 and post its URL.
if (!isMainThread && workerData?.lib) {
  const { createGatewayHandler, nodeListener } = await import(workerData.lib)
  const handler = createGatewayHandler({ baseUrl: workerData.baseUrl, apiKey: workerData.apiKey, authorize: () => true })
  const server = createServer(nodeListener(handler))
  server.listen(0, '127.0.0.1', () => parentPort.postMessage(`http://127.0.0.1:${server.address().port}${handler.basePath}`))
}
