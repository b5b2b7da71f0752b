import type { SchedulerLike } from 'rxjs'
import type { ClientOptions } from '../client.js'
import type { SimTiming, SimulatorOptions } from '../sim/options.js'

/** How the test gateway answers, beyond the simulator's rules. */
export interface TestScript {
  /**
   * The text of a response, from its request body; `undefined` keeps the
   * simulator's answer. A `[fail]` marker in the input still makes it fail.
   */
  readonly respond?: (request: Readonly<Record<string, unknown>>) => string | undefined
  /** A task's timeline and outcome, from its creation body; `undefined` keeps the simulator's. */
  readonly task?: (request: Readonly<Record<string, unknown>>) => TaskScript | undefined
}

/** One task's timeline and outcome. */
export interface TaskScript {
  /** Virtual ms in `pending`, then in `processing` (default: the gateway's `timeScale`). */
  readonly timing?: Partial<SimTiming>
  /**
   * Fail with this error code: `400` as the task leaves `pending` (an
   * `Invalid Request`), any other code as processing ends (a `Task Execution Error`).
   */
  readonly failCode?: number
}

/** A scripted failure of some requests, by route. */
export interface TestFault {
  /**
   * The requests it hits: `'create'` (response and task creations), `'taskRead'`,
   * `'stream'` (streamed creations and replays), `'other'`, or `'any'` (default).
   */
  readonly route?: 'create' | 'taskRead' | 'stream' | 'other' | 'any'
  /** The HTTP status: 429 answers the simulator's rate-limit body, 5xx its server error. */
  readonly status: number
  /** The `Retry-After` header, e.g. `'2'` (seconds). Default `'1'` for a 429, none otherwise. */
  readonly retryAfter?: string
  /** Requests of the route let through before it hits. Default 0. */
  readonly after?: number
  /** Requests it hits, one after the other. Default 1. */
  readonly times?: number
}

/** One request the test gateway received. */
export interface TestRequest {
  /** The request's method. */
  readonly method: 'GET' | 'POST'
  /** The path without its query. */
  readonly path: string
  /** The query with its `?`, or `''`. */
  readonly search: string
  /** Its headers, names in lower case, without `authorization`. */
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, parsed; `undefined` for none. */
  readonly body: unknown
  /** Scheduler time of arrival. */
  readonly at: number
  /** The status answered; 0 until then. */
  readonly status: number
  /** True when the client left before the reply was complete. */
  readonly aborted: boolean
}

/** Options of `createTestGateway`; all optional. */
export interface TestGatewayOptions
  extends Pick<SimulatorOptions, 'timeScale' | 'vocabulary' | 'usageShape' | 'allowUnknownTextToVideoFields' | 'idempotency'>,
    TestScript {
  /**
   * The clock of the gateway and of its client: every reply, stream event,
   * task status and retry wait happens on it. A `TestScheduler` (inside
   * `run`) makes all of it virtual. Default: RxJS's `asyncScheduler`.
   */
  readonly scheduler?: SchedulerLike
  /** Scheduler ms before each reply. Default 0. */
  readonly latencyMs?: number
  /** Scheduler ms between two events of a stream. Default 5. */
  readonly streamDelayMs?: number
  /** Failures to answer, in order of precedence. */
  readonly faults?: readonly TestFault[]
  /**
   * Options of the client, over the test gateway's defaults: no budget
   * (`adaptToRateLimits: false`) and polls without jitter, so times repeat.
   */
  readonly client?: Omit<ClientOptions, 'baseUrl' | 'apiKey' | 'exchange' | 'transport' | 'fetch' | 'scheduler' | 'dangerouslyAllowBrowser'>
}
