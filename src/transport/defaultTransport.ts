import { undiciTransport } from './undiciTransport.js'
import type { Transport } from './types.js'

/** Node: undici. The browser build swaps this file for `defaultTransport.browser.ts`. */
export function defaultTransport(): Transport {
  return undiciTransport()
}
