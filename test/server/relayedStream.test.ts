import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { GatewayHandler } from '../../src/server/index.js'
import { serveNode } from '../../src/server/node.js'
import { RelayedStream } from '../../src/server/relayedStream.js'
import { listen, stalledBrowser } from './helpers.js'

const encode = (text: string) => new TextEncoder().encode(text)

/** Chunks made by `make(n)` for the n-th read (done when it gives undefined), recording reads and a stop. */
function chunksOf(make: (n: number) => Uint8Array | undefined) {
  const seen = { reads: 0, stopped: false }
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const value = make(++seen.reads)
        return value ? { done: false, value } : { done: true, value: undefined }
      },
      return: async () => {
        seen.stopped = true
        return { done: true, value: undefined }
      },
    }),
  }
  return { iterable, seen }
}

describe('RelayedStream', () => {
  it('is a Response whose body pulls its chunks only when read', async () => {
    const { iterable, seen } = chunksOf((n) => (n <= 2 ? encode(`data: ${n}\n\n`) : undefined))
    const response = new RelayedStream(iterable, { status: 200, headers: { 'content-type': 'text/event-stream' } })
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen.reads).toBe(0)
    expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([200, 'text/event-stream', 'data: 1\n\ndata: 2\n\n'])
  })

  it('stops its chunks when its body is cancelled', async () => {
    const { iterable, seen } = chunksOf(() => encode('data: 1\n\n'))
    await new RelayedStream(iterable, {}).body!.cancel()
    expect(seen.stopped).toBe(true)
  })

  it('is written by the Node adapter from its chunks, no further while a part is unread, and stopped when the browser leaves', async () => {
    let browser: Socket | undefined // eslint-disable-line prefer-const -- set below, once the socket exists; the handler above reads it
    // Far more than the connection's buffers hold while the browser reads nothing.
    const huge = new Uint8Array(32 * 1024 * 1024).fill(0x61)
    const { iterable, seen } = chunksOf((n) => {
      // Once this part is written and the adapter waits for room, the browser leaves.
      if (n === 1) setImmediate(() => browser!.destroy())
      return huge
    })
    const response = new RelayedStream(iterable, { status: 200 })
    const stalled = await servedToStalledBrowser(response)
    browser = stalled.socket
    await expect(stalled.ended).resolves.toBeUndefined()
    expect(seen).toEqual({ reads: 1, stopped: true })
    // The web body was left alone: the chunks went straight to the socket.
    expect(response.bodyUsed).toBe(false)
  })

  it('takes chunks that cannot be stopped (an iterator with no return): its body is cancelled, and the browser may leave, cleanly', async () => {
    const unstoppable = (make: () => Uint8Array): AsyncIterable<Uint8Array> => ({ [Symbol.asyncIterator]: () => ({ next: async () => ({ done: false, value: make() }) }) })
    await expect(new RelayedStream(unstoppable(() => encode('a')), { status: 200 }).body!.cancel()).resolves.toBeUndefined()
    let browser: Socket | undefined // eslint-disable-line prefer-const -- set below, once the socket exists; the chunks read it
    const huge = new Uint8Array(32 * 1024 * 1024).fill(0x61)
    const response = new RelayedStream(
      unstoppable(() => {
        setImmediate(() => browser!.destroy())
        return huge
      }),
      { status: 200 },
    )
    const stalled = await servedToStalledBrowser(response)
    browser = stalled.socket
    await expect(stalled.ended).resolves.toBeUndefined()
  })
})

/** `response` served by the Node adapter to a browser that reads nothing (see `stalledBrowser`). */
async function servedToStalledBrowser(response: Response): Promise<ReturnType<typeof stalledBrowser>> {
  const handler: GatewayHandler = Object.assign(async () => response, { basePath: '/api/rxgate' })
  const served: Promise<void>[] = []
  const url = await listen(createServer((req, res) => void served.push(serveNode(handler, req, res))))
  return stalledBrowser(url, served)
}
