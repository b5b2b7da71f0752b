import { fetchTransport } from './fetchTransport.js'
import type { Transport } from './types.js'

/** Browser: the page's own `fetch` (the browser manages connections). */
export function defaultTransport(_options: unknown): Transport {
  return fetchTransport((input, init) => globalThis.fetch(input, init))
}
