import { Agent, request } from 'undici'
import type { Transport, TransportResponse } from './types.js'

/**
 * The Node transport: undici's `request` over one pooled keep-alive `Agent`
 * per gateway, several times faster than the global `fetch`. Idle pooled
 * sockets do not keep the process alive.
 */
export function undiciTransport(agent: Agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 })): Transport {
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
