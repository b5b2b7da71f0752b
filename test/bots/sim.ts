import { afterEach } from 'vitest'
import { createClient, type Client } from '../../src/client.js'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js'

const running: Simulator[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

/** A simulator closed after the current test; stream frames 1 ms apart unless told otherwise. */
export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ streamDelayMs: 1, ...options })
  running.push(sim)
  return sim
}

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
