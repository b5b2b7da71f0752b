import { asyncScheduler } from 'rxjs'
import { createClient, type Client, type ClientOptions } from '../client.js'
import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import type { SimResponseRecord, SimTaskRecord } from '../sim/ledger.js'
import { settingsOf } from '../sim/options.js'
import type { Transport } from '../transport/types.js'
import { faultScript } from './testFaults.js'
import { testExchange } from './testExchange.js'
import type { GatewayState } from './testRoutes.js'
import type { TestGatewayOptions, TestRequest } from './types.js'

/** An in-process gateway and a client that talks to it. */
export interface TestGateway {
  /** An ordinary client (as `createClient` makes it) whose gateway is this one: pass it to the code under test. */
  readonly client: Client
  /**
   * The options `client` was made with: give them to `createGateway`, or to
   * Angular's `provideGateway`, for another client of this gateway.
   */
  readonly options: ClientOptions
  /** Every request received, in order (live). */
  readonly requests: readonly TestRequest[]
  /** Every task created, in order (live). */
  readonly tasks: readonly SimTaskRecord[]
  /** Every response created, in order (live). */
  readonly responses: readonly SimResponseRecord[]
}

const BASE_URL = 'https://gateway.test'
const API_KEY = 'test-key'

/** The client's transport, never used: every request goes through the exchange. */
const offline: Transport = () => Promise.reject(new Error('rxgate/testing sends nothing over the network'))

/**
 * Makes an in-process gateway that follows the simulator's rules (request
 * checks, idempotency keys, how responses are answered and streamed, how
 * tasks move from `pending` through `processing` to `completed` or
 * `failed`, the error shapes) on the clock of `options.scheduler`, and a
 * client for it. Nothing goes over the network and no Promise lies on the
 * way: with a `TestScheduler`, inside `run`, every reply, stream event,
 * task status and retry wait happens in virtual time. Markers work as in
 * the simulator (`[fail]` in a response's input, `[fail:3001]` in a task
 * prompt); `respond`, `task` and `faults` script the rest.
 *
 * The client has no budget unless `client` sets one (`adaptToRateLimits`,
 * `maxConcurrency`: a request that must wait its turn waits on a Promise,
 * outside virtual time; fake timers with their async advance run it) and
 * polls without jitter. Nothing here imports a Node module: it runs in a
 * browser bundle too (`rxgate/angular/testing`).
 *
 * @example
 * ```ts
 * testScheduler.run(({ expectObservable }) => {
 *   const { client } = createTestGateway({ scheduler: testScheduler, respond: () => 'Hi there' })
 *   expectObservable(responses$(client, { model: 'gpt-4o', input: 'Hi' }).pipe(outputText())).toBe('(a|)', { a: 'Hi there' })
 * })
 * ```
 */
export function createTestGateway(options: TestGatewayOptions = {}): TestGateway {
  const { scheduler = asyncScheduler, latencyMs = 0, respond, task } = options ?? {}
  const { timeScale, vocabulary, usageShape, allowUnknownTextToVideoFields, idempotency } = options ?? {}
  const settings = { ...settingsOf({ timeScale, vocabulary, usageShape, allowUnknownTextToVideoFields, idempotency }), apiKey: API_KEY }
  const streamDelayMs = options?.streamDelayMs ?? settings.streamDelayMs
  const issues: RequestIssue[] = []
  for (const [name, value] of [['latencyMs', latencyMs], ['streamDelayMs', streamDelayMs]] as const) {
    if (!(Number.isInteger(value) && value >= 0)) issues.push({ path: name, message: `must be an integer of at least 0 (got ${value})` })
  }
  if (issues.length > 0) throw new InvalidRequestError(issues, 'test gateway options')
  const state: GatewayState = {
    settings,
    now: () => scheduler.now(),
    baseUrl: BASE_URL,
    script: { ...(respond ? { respond } : {}), ...(task ? { task } : {}) },
    tasks: new Map(),
    responses: new Map(),
    taskLedger: [],
    responseLedger: [],
    idempotency: new Map(),
  }
  const requests: TestRequest[] = []
  const exchange = testExchange({ state, scheduler, apiKey: API_KEY, latencyMs, streamDelayMs, faults: faultScript(options?.faults), log: requests })
  const { client: own = {} } = options ?? {}
  const clientOptions: ClientOptions = {
    adaptToRateLimits: false,
    ...own,
    taskPoll: { jitter: 0, ...own.taskPoll },
    responsePoll: { jitter: 0, ...own.responsePoll },
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    // The key is the test gateway's own, known to nobody else: a page under test (jsdom) may hold it.
    dangerouslyAllowBrowser: true,
    transport: offline,
    exchange,
    scheduler,
  }
  const client = createClient(clientOptions)
  return { client, options: clientOptions, requests, tasks: state.taskLedger, responses: state.responseLedger }
}
