// SSE throughput: one loopback stream of `deltas` text deltas in 16 KB chunks,
// read to the end by rxgate (validation on, outputText), the openai package,
// and the floor (undici request + eventsource-parser + JSON.parse, no validation);
// each builds the streamed text.
import { createParser } from 'eventsource-parser'
import OpenAI from 'openai'
import { lastValueFrom } from 'rxjs'
import { Agent, request } from 'undici'
import { createGateway, outputText } from '../dist/index.js'
import { interleave, rate } from './measure.mjs'
import { sseBody, startSseServer } from './sseServer.mjs'

export async function sseBench({ deltas = 100_000, rounds = 5 } = {}) {
  const { body, text, events } = sseBody(deltas)
  const server = await startSseServer(body)
  const gateway = createGateway({ baseUrl: server.url, apiKey: 'bench-key' })
  const openai = new OpenAI({ baseURL: `${server.url}/vendors/vendor-a/v1`, apiKey: 'bench-key', maxRetries: 0 })
  const agent = new Agent()
  // Every contender builds the streamed text, so all do the same work.
  const check = (got, what) => {
    if (got !== text) throw new Error(`${what} read a different text`)
  }

  const rxgate = () =>
    rate(events, async () => check(await lastValueFrom(gateway.responses$({ model: 'm', input: 'x', stream: true }).pipe(outputText())), 'rxgate'))
  const openaiRun = () =>
    rate(events, async () => {
      let got = ''
      for await (const event of await openai.responses.create({ model: 'm', input: 'x', stream: true })) if (event.type === 'response.output_text.delta') got += event.delta
      check(got, 'openai')
    })
  const floor = () =>
    rate(events, async () => {
      const res = await request(`${server.url}/vendors/vendor-a/v1/responses`, { method: 'POST', body: '{}', dispatcher: agent })
      let got = ''
      const decoder = new TextDecoder()
      const parser = createParser({
        onEvent: (e) => {
          const event = JSON.parse(e.data)
          if (event.type === 'response.output_text.delta') got += event.delta
        },
      })
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }))
      check(got, 'floor')
    })

  try {
    // Interleaved rounds, so drift of the machine hits all three alike.
    const runs = { floor, rxgate, openai: openaiRun }
    const results = await interleave(runs, rounds)
    return { events, ...results }
  } finally {
    await server.close()
    await agent.close()
  }
}
