import { Agent, request, type Dispatcher } from 'undici'
import type { Transport, TransportResponse } from './types.js'

/** Options of the Node transport. */
export interface UndiciTransportOptions {
  /** Most connections open to the gateway at once; further requests wait for one. Default: no limit. */
  readonly maxConnections?: number | undefined
  /** An undici dispatcher (`Agent`, `Pool`, `ProxyAgent`, `MockAgent`) to send through instead. */
  readonly dispatcher?: Dispatcher | undefined
}

/**
 * The Node transport: undici's `request` over one pooled keep-alive `Agent`
 * per client, several times faster than the global `fetch`. By default the
 * number of connections is not capped, so a long-lived stream never makes
 * the next request wait behind it; idle pooled sockets do not keep the
 * process alive.
 */
export function undiciTransport({ maxConnections, dispatcher }: UndiciTransportOptions = {}): Transport {
  const agent = dispatcher ?? new Agent({ keepAliveTimeout: 10_000, ...(maxConnections ? { connections: maxConnections } : {}) })
  return async ({ method, url, headers, body, signal }): Promise<TransportResponse> => {
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
    }
  }
}
