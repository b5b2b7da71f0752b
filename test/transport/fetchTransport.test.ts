import { describe, expect, it } from 'vitest'
import { AbortSwitch } from '../../src/transport/abort.js'
import { fetchTransport } from '../../src/transport/fetchTransport.js'
import { open } from '../../src/transport/exchange.js'
import type { TransportRequest } from '../../src/transport/types.js'
import { clientWith } from '../helpers/client.js'

const encoder = new TextEncoder()

/** A fetch answering with `body` chunk by chunk; records whether the client cancelled the body. */
function fetchOf(chunks: string[] | null, status = 200) {
  const seen = { cancelled: false }
  const fetchFn = (async () => {
    if (chunks === null) return new Response(null, { status })
    let i = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]))
        else controller.close()
      },
      cancel() {
        seen.cancelled = true
      },
    })
    return new Response(stream, { status, headers: { 'content-type': 'text/event-stream' } })
  }) as typeof globalThis.fetch
  return { transport: fetchTransport(fetchFn), seen }
}

const request: TransportRequest = { method: 'GET', url: 'https://gateway.test/s', headers: {}, signal: new AbortSwitch() }
const decoder = new TextDecoder()

describe('fetchTransport', () => {
  it('reads a reply without a body as an empty body', async () => {
    const { transport } = fetchOf(null, 204)
    const res = await transport(request)
    const chunks: Uint8Array[] = []
    for await (const chunk of res.body) chunks.push(chunk)
    expect(res.status).toBe(204)
    expect(chunks).toEqual([])
  })

  it('leaves a body read to its end alone: no cancel after the last chunk', async () => {
    // A reader that records every call, as a browser's would see them.
    const calls: string[] = []
    const chunks = ['a', 'b']
    const reader = {
      read: async () => {
        calls.push('read')
        const chunk = chunks.shift()
        return chunk === undefined ? { done: true, value: undefined } : { done: false, value: encoder.encode(chunk) }
      },
      cancel: async () => {
        calls.push('cancel')
      },
    }
    const fetchFn = (async () => ({ status: 200, headers: new Headers(), body: { getReader: () => reader } })) as unknown as typeof globalThis.fetch
    const res = await fetchTransport(fetchFn)(request)
    let text = ''
    for await (const chunk of res.body) text += decoder.decode(chunk)
    expect(text).toBe('ab')
    expect(calls).toEqual(['read', 'read', 'read'])
  })

  it('cancels a body the client stops reading early, freeing its connection', async () => {
    const { transport, seen } = fetchOf(['a', 'b', 'c'])
    const res = await transport(request)
    for await (const chunk of res.body) {
      expect(decoder.decode(chunk)).toBe('a')
      break
    }
    await new Promise((r) => setImmediate(r))
    expect(seen.cancelled).toBe(true)
  })
})

describe('fetchTransport and a URL it cannot resolve', () => {
  it('a relative baseUrl with no page to resolve it against is a ConnectionError with sent: false that names the cause', async () => {
    const conn = { ...clientWith({ transport: fetchTransport(globalThis.fetch) }), baseUrl: '/api/rxgate' }
    const err = await open(conn, { method: 'POST', path: '/p', body: '{}' }, 'application/json', new AbortSwitch()).then(
      () => expect.fail('expected a rejection'),
      (e: unknown) => e,
    )
    expect(err).toMatchObject({ name: 'ConnectionError', sent: false })
    expect((err as Error).message).toBe('POST /p: could not reach the gateway (ERR_INVALID_URL); check baseUrl and the network')
  })
})
