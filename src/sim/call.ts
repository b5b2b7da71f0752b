import type { IncomingMessage, ServerResponse } from 'node:http'

/** One request the simulator received, as tests see it. */
export interface SimRequestLog {
  /** The request's method. */
  readonly method: string
  /** The path without the query. */
  readonly path: string
  /** The query, with its `?`, or `''`. */
  readonly search: string
  /** The status sent, or 0 while no reply has started (and for a connection destroyed before any reply). */
  readonly status: number
  /** True when the client went away before the reply was complete. */
  readonly aborted: boolean
  /** Simulated time of arrival, epoch ms. */
  readonly at: number
  /** The `Idempotency-Key` header, when the request carried one. */
  readonly idempotencyKey?: string
  /** The fault injected into this request, e.g. `'resetAfterCreate'` or `'chaos:badPollReply:html'`. */
  readonly fault?: string
}

/** The log entry a handler fills in. */
export type MutableLog = { -readonly [K in keyof SimRequestLog]: SimRequestLog[K] }

/** Random numbers drawn for a request that chaos picked (drawn on arrival so runs repeat whatever the concurrency). */
export interface ChaosDraw {
  /** Picks the fault among those that fit the route, in [0, 1). */
  readonly pick: number
  /** A second number in [0, 1), e.g. for the frame a stream is cut at. */
  readonly extra: number
}

/** A request being answered, with what every handler needs. */
export interface Call {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly url: URL
  /** The route pattern's captured groups. */
  readonly params: readonly string[]
  /** Aborts when the reply ends, the client goes away or the simulator closes. */
  readonly signal: AbortSignal
  readonly log: MutableLog
  /** Position of this request in the request log, from 0. */
  readonly index: number
  /** Set when chaos picked this request and the route has not used it yet. */
  chaos?: ChaosDraw
  /** Set when the `hugeReply` fault pads this request's 2xx JSON reply to that many bytes. */
  hugeReplyBytes?: number
  /** Destroys the connection on the server's initiative (so it is not counted as closed by the client). */
  destroy(): void
  /** Records a fault injected into this request, in its log entry and in the simulator's fault log. */
  note(fault: string, by?: 'faults' | 'chaos'): void
}

/** What a route does, for the faults that only fit some routes (chaos draws from the list that fits). */
export type RouteKind = 'create' | 'taskRead' | 'stream' | 'other'

/** A route: requests whose method and path match go to `handle`. */
export interface Route {
  readonly method: 'GET' | 'POST'
  /** Matched against the whole path; its groups become `call.params`. */
  readonly pattern: RegExp
  /** Public routes (result files, samples) need no token and take no gateway faults. */
  readonly public?: boolean
  /** What the route does, given the request (default `'other'`). */
  readonly kind?: (call: Call) => RouteKind
  handle(call: Call): Promise<void> | void
}
