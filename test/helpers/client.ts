import { createClient, type Client, type ClientOptions } from '../../src/client.js'
import type { Transport } from '../../src/transport/types.js'
import { VirtualClock } from './clock.js'
import type { Observed, Outcome } from './collect.js'
import { fakeGateway, type Answer, type FakeGateway } from './fakeTransport.js'
import { KEY } from './fixtures.js'

export const BASE = 'https://gateway.test'

/** Options of a test client: those of `createClient`, a transport, and (for the scripted one) whether its bodies are pushed to the reader. */
export type TestClientOptions = Partial<ClientOptions> & { readonly transport?: Transport; readonly pushBodies?: boolean }

/** `createClient` with a transport passed as the `transport` option. */
export function clientWith(options: TestClientOptions): Client {
  return createClient({ baseUrl: BASE, apiKey: KEY, ...options } as ClientOptions)
}

export interface FakeSetup {
  readonly gw: FakeGateway
  readonly clock: VirtualClock
  readonly client: Client
}

/**
 * A client over a scripted transport whose every timer runs on a virtual
 * clock. Retries wait nothing by default (`baseDelayMs: 0`) unless the
 * options say otherwise.
 */
export function fakeClient(answer: Answer, { pushBodies, ...options }: TestClientOptions = {}): FakeSetup {
  const gw = fakeGateway(answer, { push: pushBodies })
  const clock = new VirtualClock()
  const client = clientWith({ transport: gw.transport, scheduler: clock, ...options })
  return { gw, clock, client }
}

/** Answers the n-th request (1-based) with `replies[n-1]`, and every later one with the last. */
export function inTurn(...replies: ReturnType<Answer>[]): Answer {
  let n = 0
  return () => replies[Math.min(n++, replies.length - 1)]!
}

/**
 * Runs the clock (letting I/O settle after each timer) until `o` has ended,
 * and returns how it ended; fails at once, instead of hanging, when it is
 * still running after every timer has run.
 */
export async function ended<T>(clock: VirtualClock, o: Observed<T>, limitMs?: number): Promise<Outcome<T>> {
  await clock.runUntil(() => o.completed || o.error !== undefined, limitMs)
  if (!o.completed && o.error === undefined) throw new Error(`still running with no timer left to run (${o.values.length} values so far)`)
  return o.done
}

/** `o`, whose `done` runs the clock until it has ended (see {@link ended}). */
export function onClock<T>(clock: VirtualClock, o: Observed<T>): Observed<T> {
  return Object.create(o, { done: { get: () => ended(clock, o) } }) as Observed<T>
}
