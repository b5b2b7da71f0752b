import type { AddressInfo } from 'node:net'
import { createClock } from './clock.js'
import type { SimEnv } from './env.js'
import { createFaultPlan } from './faults.js'
import { fileRoutes } from './files.js'
import type { SimRequestLog } from './http.js'
import { settingsOf, type SimFaults, type SimulatorOptions } from './options.js'
import { responseRoutes } from './responses.js'
import { createSimServer } from './server.js'
import { taskRoutes } from './tasks.js'

export type { SimRequestLog } from './http.js'
export type { SimFaults, SimQuirks, SimTiming, SimulatorOptions } from './options.js'
export { FAIL_MARKER } from './responseModel.js'

/** A running simulator. */
export interface Simulator {
  /** Base URL to give a client, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string
  /** The bearer token it accepts. */
  readonly apiKey: string
  /** Every request received so far, in order of arrival (live). */
  readonly requests: readonly SimRequestLog[]
  /** Connections open right now. */
  readonly openConnections: number
  /** Connections the client closed (e.g. an aborted fetch), as opposed to the server. */
  readonly connectionsClosedByClient: number
  /** Simulated time, epoch ms. */
  now(): number
  /** Moves simulated time forward: tasks, background responses and URL expiry follow at once. */
  advanceTime(ms: number): void
  /** Replaces the faults in force (`{}` for none) and restarts their request count. */
  setFaults(faults: SimFaults): void
  /** Ends every connection and timer; resolves once the server has closed. Safe to call twice. */
  close(): Promise<void>
}

/**
 * Starts a local gateway simulator on 127.0.0.1 implementing every endpoint
 * of the interface: responses (JSON, streamed, background, retrieval, replay,
 * cancel), the six media models' task creation and results, and the result
 * files, with optional faults. Node only.
 *
 * Markers in prompts force failures: `[fail]` in a response's input or
 * instructions makes it fail (`status: 'failed'`, or a `response.failed`
 * event); `[fail:3001]` or `[fail:400]` in a task prompt makes the task
 * fail with that error code.
 *
 * @example
 * ```ts
 * const sim = await startSimulator({ timeScale: 'fast' })
 * const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey })
 * // ... use the gateway; in tests, sim.advanceTime(60_000) skips a render ...
 * await sim.close()
 * ```
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const settings = settingsOf(options)
  let url = ''
  const env: SimEnv = {
    settings,
    clock: createClock(),
    faults: createFaultPlan(options.faults),
    tasks: new Map(),
    responses: new Map(),
    baseUrl: () => url,
  }
  const sim = createSimServer(env, [...responseRoutes(env), ...taskRoutes(env), ...fileRoutes(env)])
  await new Promise<void>((resolve, reject) => {
    sim.server.once('error', reject)
    sim.server.listen(options.port ?? 0, '127.0.0.1', () => {
      sim.server.off('error', reject)
      resolve()
    })
  })
  url = `http://127.0.0.1:${(sim.server.address() as AddressInfo).port}`
  return {
    url,
    apiKey: settings.apiKey,
    requests: sim.requests,
    get openConnections() {
      return sim.openConnections()
    },
    get connectionsClosedByClient() {
      return sim.connectionsClosedByClient()
    },
    now: () => env.clock.now(),
    advanceTime: (ms) => env.clock.advance(ms),
    setFaults: (faults) => env.faults.set(faults),
    close: () => sim.close(),
  }
}
