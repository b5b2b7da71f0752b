// SSE throughput: one loopback stream of `deltas` text deltas in 16 KB chunks,
// read to the end by rxgate (validation of every event on, outputText), the
// peers (openai, AI SDK, TanStack AI) and the floor (undici request +
// eventsource-parser + JSON.parse, no validation). Every contender builds the
// streamed text, so all do the same work.
import { lastValueFrom } from 'rxjs'
import { Agent, request } from 'undici'
import { createClient, outputText, responses$ } from '../dist/index.js'
import { interleave, rate, ratios } from './measure.mjs'
import { streamPeers } from './peers.mjs'
import { BODY, deltaText, HEADERS, sseBody, startSseServer } from './sseServer.mjs'

export async function sseBench({ deltas = 100_000, rounds = 5 } = {}) {
  const { body, text, events } = sseBody(deltas)
  const server = await startSseServer(body)
  const client = createClient({ baseUrl: server.url, apiKey: 'bench-key' })
  const agent = new Agent()
  const check = (got, what) => {
    if (got !== text) throw new Error(`${what} read a different text`)
  }
  const contenders = {
    floor: () =>
      rate(events, async () => {
        const res = await request(`${server.url}/vendors/vendor-a/v1/responses`, { method: 'POST', headers: HEADERS, body: BODY, dispatcher: agent })
        check(await deltaText(res.body), 'floor')
      }),
    rxgate: () =>
      rate(events, async () => check(await lastValueFrom(responses$(client, { model: 'm', input: 'x', stream: true }).pipe(outputText())), 'rxgate')),
  }
  for (const [name, read] of Object.entries(streamPeers(server.url))) contenders[name] = () => rate(events, async () => check(await read(), name))
  try {
    const results = await interleave(contenders, rounds)
    const versus = (name) => ratios(results.rxgate, results[name])
    return { events, results, floor: versus('floor'), peers: Object.fromEntries(Object.keys(results).filter((n) => n !== 'floor' && n !== 'rxgate').map((n) => [n, versus(n)])) }
  } finally {
    await server.close()
    await agent.close()
  }
}
