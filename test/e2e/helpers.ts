import { observe as observeOnce, type Observed } from '../helpers/collect.js'
import { lastValueFrom, toArray, type Observable, type Subscription } from 'rxjs'
import { afterEach } from 'vitest'
import { createGateway, type Gateway, type GatewayOptions } from '../../src/index.js'
import { startSimulator, type Simulator, type SimulatorOptions, type SimRequestLog } from '../../src/sim/index.js'
import { VirtualClock } from '../helpers/clock.js'

const running: Simulator[] = []
const subscriptions: Subscription[] = []

afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.unsubscribe()
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

/** Starts a simulator that is closed after the current test; streams go 1 ms a frame unless told otherwise. */
export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ streamDelayMs: 1, ...options })
  running.push(sim)
  return sim
}

/** Timing that real time never finishes within a test: only `advanceTime` moves a task or background response on. */
export const FROZEN = { pendingMs: 30_000, processingMs: 150_000 } as const

/** Task polling fast enough for the simulator: every 30 ms, no jitter. */
export const FAST_TASK_POLL = { initialDelayMs: 30, factor: 1, maxDelayMs: 30, jitter: 0 } as const

/** A gateway on the simulator, with short retry waits so faults do not slow the tests down. */
export function gatewayFor(sim: Pick<Simulator, 'url' | 'apiKey'>, options: Partial<GatewayOptions> = {}): Gateway {
  return createGateway({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    responsePoll: { initialDelayMs: 20, factor: 1, maxDelayMs: 20, jitter: 0 },
    taskPoll: FAST_TASK_POLL,
    ...options,
  })
}

export type { Outcome } from '../helpers/collect.js'

/** Subscribes and records every notification (see helpers/collect); the subscription is ended after the test. */
export function observe<T>(source: Observable<T>): Observed<T> {
  const observed = observeOnce(source)
  subscriptions.push(observed.subscription)
  return observed
}

/** Every value, once the Observable completes (rejects on error). */
export function all<T>(source: Observable<T>): Promise<T[]> {
  return lastValueFrom(source.pipe(toArray()))
}

/** The error the Observable must end with; throws when it completes instead. */
export async function errorOf(source: Observable<unknown>): Promise<unknown> {
  const outcome = await observe(source).done
  if (outcome.completed) throw new Error(`expected an error, got completion after ${outcome.values.length} values`)
  return outcome.error
}

/** The requests the simulator received with this method whose path starts with `prefix`. */
export function requestsTo(sim: Simulator, method: string, prefix: string): SimRequestLog[] {
  return sim.requests.filter((r) => r.method === method && r.path.startsWith(prefix))
}

/** A fetch to the simulator with its token and a JSON body. */
export function call(sim: Simulator, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${sim.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  })
}

/**
 * A gateway on the simulator whose timers (polls, retries, timeouts) run on a
 * virtual clock: time moves only when the test advances it, and `clock.pending`
 * shows whether anything is still scheduled.
 */
export function clockedGatewayFor(sim: Pick<Simulator, 'url' | 'apiKey'>, options: Partial<GatewayOptions> = {}): { gateway: Gateway; clock: VirtualClock } {
  const clock = new VirtualClock()
  return { gateway: gatewayFor(sim, { scheduler: clock, ...options }), clock }
}

export const MODEL = 'gpt-4.1-mini'
