import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { responses$ } from '../../src/responses$.js'
import type { Transport, TransportResponse } from '../../src/transport/types.js'

const BODY = 'data: {"type":"response.completed","sequence_number":1,"response":{"id":"r","object":"response","created_at":1,"model":"m","status":"completed"}}\n\n'

function reply(): TransportResponse {
  return {
    status: 200,
    header: (name) => (name === 'content-type' ? 'text/event-stream' : undefined),
    body: (async function* () {
      yield new TextEncoder().encode(BODY)
    })(),
    text: async () => BODY,
  }
}

describe('a stream left before its reply arrives, on a transport that ignores the abort', () => {
  it('ends its exchange when the late reply comes, so the budget’s slot is free for the next call', async () => {
    const answers: ((response: TransportResponse) => void)[] = []
    // Answers only when told, abort or not.
    const transport: Transport = () => new Promise((resolve) => answers.push(resolve))
    const client = createClient({ baseUrl: 'https://gateway.test', apiKey: 'k', transport, maxConcurrency: 1 })
    const first = responses$(client, { model: 'm', input: 'a', stream: true }).subscribe()
    await new Promise((resolve) => setImmediate(resolve))
    expect(answers).toHaveLength(1)
    first.unsubscribe()
    answers[0]!(reply())
    const second = responses$(client, { model: 'm', input: 'b', stream: true }).subscribe()
    for (let i = 0; i < 20 && answers.length < 2; i++) await new Promise((resolve) => setImmediate(resolve))
    expect(answers).toHaveLength(2)
    second.unsubscribe()
    answers[1]!(reply())
  })
})
