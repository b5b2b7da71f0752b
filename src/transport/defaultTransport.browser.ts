import { fetchTransport } from './fetchTransport.js'
import type { Transport } from './types.js'

/** Browser: the page's own `fetch`. */
export function defaultTransport(): Transport {
  return fetchTransport((input, init) => globalThis.fetch(input, init))
}
