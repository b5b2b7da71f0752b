/**
 * A local reference gateway for tests and development (Node):
 * {@link startSimulator} serves the whole interface on 127.0.0.1, in
 * simulated time, with deterministic faults on demand.
 *
 * @example
 * ```ts
 * import { startSimulator } from 'rxgate/sim'
 *
 * const sim = await startSimulator({ timeScale: 'fast' })
 * const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey })
 * ```
 *
 * @module rxgate/sim
 */
import type { AddressInfo } from 'node:net'
import type { SimRequestLog } from './call.js'
import { createClock } from './clock.js'
import type { SimEnv } from './env.js'
import { createFaultPlan } from './faultPlan.js'
import type { SimFaultRecord, SimFaults } from './faultTypes.js'
import { fileRoutes } from './files.js'
import type { SimResponseRecord, SimTaskRecord } from './ledger.js'
import { settingsOf, type SimulatorOptions } from './options.js'
import { responseRoutes } from './responseRoutes.js'
import { sampleRoutes } from './samples.js'
import { createSimServer } from './server.js'
import { taskRoutes } from './taskRoutes.js'

export type { SimRequestLog } from './call.js'
export type { BadPollKind, ChaosFault, SimFaultRecord, SimFaults } from './faultTypes.js'
export { BAD_POLL_KINDS, CHAOS_FAULTS } from './faultTypes.js'
export type { SimResponseRecord, SimTaskRecord } from './ledger.js'
export type { SimQuirks, SimTiming, SimulatorOptions } from './options.js'
export { BAD_ARGS_MARKER, FAIL_MARKER, PREAMBLE_MARKER, REFUSE_MARKER } from './responseModel.js'

/** A running simulator. */
export interface Simulator {
  /** Base URL to give a client, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string
  /** The bearer token it accepts. */
  readonly apiKey: string
  /** Every request received so far, in order of arrival (live). */
  readonly requests: readonly SimRequestLog[]
  /** Every task created, in order (live): count creations, duplicates per idempotency key, tasks never reported. */
  readonly tasks: readonly SimTaskRecord[]
  /** Every response created, in order (live). */
  readonly responses: readonly SimResponseRecord[]
  /** Every fault injected, in order (live). */
  readonly faultLog: readonly SimFaultRecord[]
  /** How many times each fault was injected, by name (`'chaos:…'` for chaos), e.g. `{ rateLimit: 2, 'chaos:reset': 1 }`. */
  readonly faultCounts: Readonly<Record<string, number>>
  /** Connections open right now. */
  readonly openConnections: number
  /** Connections the client closed (e.g. an aborted fetch), as opposed to the server. */
  readonly connectionsClosedByClient: number
  /** Simulated time, epoch ms. */
  now(): number
  /** Moves simulated time forward: tasks, background responses and URL expiry follow at once. */
  advanceTime(ms: number): void
  /** Replaces the faults in force (`{}` for none), restarts their counts and reseeds chaos. Throws a RangeError for an invalid fault. */
  setFaults(faults: SimFaults): void
  /** The URL of an audio sample, e.g. `sampleUrl('tone-5s.wav')` (the names: docs/simulator.md, Audio samples). */
  sampleUrl(name: string): string
  /** Ends every connection and timer; resolves once the server has closed. Safe to call twice. */
  close(): Promise<void>
}

/**
 * Starts a local reference gateway on 127.0.0.1, written from the interface
 * alone: responses (JSON, streamed, background, retrieval, replay, cancel),
 * the six media models' task creation and results, result files, audio
 * samples, request checks, idempotency keys and deterministic faults. Node only.
 *
 * Markers force outcomes: `[fail]` in a response's input or instructions
 * makes it fail, `[refuse]` makes it a refusal; `[preamble]` makes the model
 * write a short message before its function calls, `[bad-args]` makes the
 * first call of each tool break its schema (an error given back is then
 * corrected with a second call); `[fail:3001]` or
 * `[fail:400]` in a task prompt makes the task fail with that code.
 *
 * @example
 * ```ts
 * const sim = await startSimulator({ timeScale: 'fast' })
 * const res = await fetch(`${sim.url}/vendors/vendor-a/v1/responses`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ model: 'gpt-4o', input: 'Say hi' }),
 * })
 * console.log((await res.json()).output_text)
 * // Output: Hi there! How can I help you today?
 * sim.advanceTime(60_000) // in tests: skip a render
 * await sim.close()
 * ```
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const settings = settingsOf(options)
  const closing = new AbortController()
  let url = ''
  const clock = createClock()
  const env: SimEnv = {
    settings,
    clock,
    faults: createFaultPlan(options.faults, clock),
    tasks: new Map(),
    responses: new Map(),
    taskLedger: [],
    responseLedger: [],
    idempotency: new Map(),
    faultLog: [],
    baseUrl: () => url,
    closing: closing.signal,
  }
  const routes = [...responseRoutes(env), ...taskRoutes(env), ...fileRoutes(env), ...sampleRoutes()]
  const sim = createSimServer(env, routes, closing)
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
    tasks: env.taskLedger,
    responses: env.responseLedger,
    faultLog: env.faultLog,
    get faultCounts() {
      const counts: Record<string, number> = {}
      for (const { fault, by } of env.faultLog) {
        const name = by === 'chaos' ? `chaos:${fault}` : fault
        counts[name] = (counts[name] ?? 0) + 1
      }
      return counts
    },
    get openConnections() {
      return sim.openConnections()
    },
    get connectionsClosedByClient() {
      return sim.connectionsClosedByClient()
    },
    now: () => env.clock.now(),
    advanceTime: (ms) => env.clock.advance(ms),
    setFaults: (faults) => env.faults.set(faults),
    sampleUrl: (name) => `${url}/samples/${encodeURIComponent(name)}`,
    close: () => sim.close(),
  }
}
