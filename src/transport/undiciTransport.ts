import type { Readable } from 'node:stream'
import { Agent, request, type Dispatcher } from 'undici'
import type { Transport, TransportResponse } from './types.js'

/** Options of the Node transport. */
export interface UndiciTransportOptions {
  /** Most connections open at once for JSON requests (further ones wait for one). Streams are not counted. Default 128. */
  readonly maxConnections?: number | undefined
  /** An undici dispatcher (`Agent`, `Pool`, `ProxyAgent`, `MockAgent`) to send everything through instead. */
  readonly dispatcher?: Dispatcher | undefined
}

/** Connections for JSON requests, by default: enough to keep thousands of polls moving, few enough to stay cheap. */
const JSON_CONNECTIONS = 128

/**
 * The Node transport: undici's `request` over pooled keep-alive
 * connections, several times faster than the global \`fetch\`. Two pools:
 * JSON requests share at most `maxConnections` connections, so 10,000 task
 * polls due at once do not open 10,000 sockets; streams have a pool of
 * their own with no limit, so a long-lived stream never makes another wait.
 * Idle pooled sockets do not keep the process alive.
 */
export function undiciTransport({ maxConnections = JSON_CONNECTIONS, dispatcher }: UndiciTransportOptions = {}): Transport {
  const json = dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: maxConnections })
  let streams: Dispatcher | undefined = dispatcher
  return async ({ method, url, headers, body, signal, stream }): Promise<TransportResponse> => {
    // Made on first use: an app that never streams holds no second pool.
    const agent = stream ? (streams ??= new Agent({ keepAliveTimeout: 10_000 })) : json
    // undici takes any EventTarget-like signal.
    const res = await request(url, { method, headers, body, signal: signal as AbortSignal, dispatcher: agent })
    return {
      status: res.statusCode,
      header: (name) => {
        const value = res.headers[name]
        return Array.isArray(value) ? value.join(', ') : value
      },
      body: res.body,
      text: () => res.body.text(),
      textUpTo: (limit) => textUpTo(res.body, limit),
    }
  }
}

const decoder = new TextDecoder()

/** The body's text, at most `limit` bytes, gathered from its `data` events: a reply of unknown length costs no more to read than one that says its length. */
function textUpTo(body: Readable, limit: number): Promise<{ text: string; whole: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let bytes = 0
    const text = () => decoder.decode(Buffer.concat(chunks, bytes))
    body.on('error', reject)
    body.on('end', () => resolve({ text: text(), whole: true }))
    body.on('data', (chunk: Buffer) => {
      const room = limit - bytes
      if (chunk.byteLength <= room) {
        chunks.push(chunk)
        bytes += chunk.byteLength
        return
      }
      chunks.push(chunk.subarray(0, room))
      bytes = limit
      resolve({ text: text(), whole: false })
      body.destroy()
    })
  })
}
