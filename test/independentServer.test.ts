import type http from 'node:http'
import { describe, expect, it } from 'vitest'
import { createGateway, finalResponse, outputText, textDeltas, type ResponseStreamEvent } from '../src/index.js'
import { collect } from './helpers/collect.js'
import { KEY, OPENAI_USAGE, RECORDED_EVENTS, RECORDED_TEXT, recordedStream, SPEC_USAGE, TRANSPORTS } from './helpers/fixtures.js'
import { startServer, startSse } from './helpers/server.js'

// A loopback server written apart from the library, speaking the OpenAI
// stream format with the gateway's quirks: `: ping` comments, `\r\n` line
// ends, data over several lines, an unknown event type, multibyte text, and
// a final `data: [DONE]`. It writes its bytes in pieces, pausing between
// them so that they reach the client as separate reads.

/** Writes `bytes` split at `cuts`, a few ms apart, then ends. */
function writeInPieces(res: http.ServerResponse, bytes: Buffer, cuts: number[]): void {
  const bounds = [0, ...cuts, bytes.length]
  let i = 0
  const next = (): void => {
    if (i >= bounds.length - 1) return void res.end()
    const piece = bytes.subarray(bounds[i]!, bounds[i + 1]!)
    i++
    res.write(piece, () => setTimeout(next, 3))
  }
  next()
}

async function openAiServer(usage: Record<string, unknown>, cuts: (bytes: Buffer) => number[] = () => []) {
  const bytes = Buffer.from(recordedStream(usage))
  return startServer((req, res) => {
    if (req.method !== 'POST' || !(req.json as { stream?: boolean }).stream) {
      res.writeHead(400)
      return res.end()
    }
    startSse(res)
    writeInPieces(res, bytes, cuts(bytes))
  })
}

/** Byte offsets inside é, —, 🚀 (after each of its first three bytes) and between \r and \n. */
function awkwardCuts(bytes: Buffer): number[][] {
  const at = (s: string, skip: number) => bytes.indexOf(Buffer.from(s)) + skip
  return [
    [at('é', 1)],
    [at('—', 1)],
    [at('—', 2)],
    [at('🚀', 1)],
    [at('🚀', 2)],
    [at('🚀', 3)],
    [at('\r\n', 1)],
    [at('data: [DONE]', 8)],
    [at('é', 1), at('—', 2), at('🚀', 3), at('✓', 1)],
  ]
}

describe.each(TRANSPORTS)('an independent OpenAI-format server over $name', ({ options }) => {
  const gatewayFor = (url: string) => createGateway({ baseUrl: url, apiKey: KEY, retry: false, ...options })

  it.each([
    ['input_tokens/output_tokens', OPENAI_USAGE],
    ['prompt_tokens/completion_tokens', SPEC_USAGE],
  ])('streams every event in order and outputText() assembles exactly the streamed text (usage as %s)', async (_, usage) => {
    const server = await openAiServer(usage)
    const gateway = gatewayFor(server.url)

    const events = await collect(gateway.responses$({ model: 'gpt-test', input: 'hi', stream: true }))
    expect(events.completed).toBe(true)
    expect((events.values as ResponseStreamEvent[]).map((e) => [String(e.type), e.sequence_number])).toEqual(RECORDED_EVENTS)
    expect(events.values[6]).toMatchObject({ delta: '?', extra: { nested: [1, 2] } })

    expect((await collect(gateway.responses$({ model: 'gpt-test', input: 'hi', stream: true }).pipe(outputText()))).values).toEqual([RECORDED_TEXT])
    expect((await collect(gateway.responses$({ model: 'gpt-test', input: 'hi', stream: true }).pipe(textDeltas()))).values.join('')).toBe(RECORDED_TEXT)
    const final = await collect(gateway.responses$({ model: 'gpt-test', input: 'hi', stream: true }).pipe(finalResponse()))
    expect(final.values).toEqual([expect.objectContaining({ status: 'completed', usage })])
  })

  it('gives the same result when its bytes arrive split inside characters and line ends', async () => {
    for (const cuts of awkwardCuts(Buffer.from(recordedStream()))) {
      const server = await openAiServer(OPENAI_USAGE, () => cuts)
      const out = await collect(gatewayFor(server.url).responses$({ model: 'gpt-test', stream: true }))
      expect({ cuts, error: out.error, events: (out.values as ResponseStreamEvent[]).map((e) => [String(e.type), e.sequence_number]) }).toEqual({ cuts, error: undefined, events: RECORDED_EVENTS })
      const text = out.values
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => (e as { delta: string }).delta)
        .join('')
      expect(text).toBe(RECORDED_TEXT)
      await server.close()
    }
  })
})
