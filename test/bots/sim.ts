import { createClient, type Client } from '../../src/client.js'
import type { Simulator } from '../../src/sim/index.js'

// A simulator closed after the current test, as the simulator's own tests start one.
export { simulator } from '../sim/helpers.js'

/** A client of the simulator. */
export function clientOf(sim: Simulator): Client {
  return createClient({ baseUrl: sim.url, apiKey: sim.apiKey })
}

/** Response creations the simulator received. */
export function creations(sim: Simulator): number {
  return sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/responses')).length
}

/** Resolves once `condition` holds, checking after each turn of I/O; rejects after `ms`. */
export async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error(`condition not met within ${ms} ms`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** A function tool as the request offers it. */
export function functionTool(name: string, properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'function', name, parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, strict: true }
}
