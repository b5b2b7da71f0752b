import { undiciTransport, type UndiciTransportOptions } from './undiciTransport.js'
import type { Transport } from './types.js'

/** Node: undici. The browser build swaps this file for `defaultTransport.browser.ts`. */
export function defaultTransport(options: UndiciTransportOptions): Transport {
  return undiciTransport(options)
}
