/**
 * The faults the simulator can inject. All are deterministic: a fault that
 * says `every: N` hits the N-th, 2N-th, … request of its kind, counted from 1
 * since the faults were last set; stream faults hit every stream while set;
 * `chaos` draws from a seeded generator, so a run repeats. Result files,
 * samples and CORS preflights take no faults except `dropDownloadAt`.
 */
export interface SimFaults {
  /** Real milliseconds to wait before answering each gateway request. */
  readonly latencyMs?: number
  /**
   * Every `every`-th gateway request answers 429. `code` picks the body:
   * `'rate_limit_exceeded'` (default; `Retry-After: <retryAfter>`, default `'1'`)
   * or `'insufficient_quota'` (OpenAI's out-of-credit body, which no retry
   * fixes; no `Retry-After` unless `retryAfter` is given).
   */
  readonly rateLimit?: {
      /** Which requests: the `every`-th, 2×`every`-th, … of its kind. */
      readonly every: number
      /** The `Retry-After` header's value. */
      readonly retryAfter?: string
      /** The error body's `code`. */
      readonly code?: 'rate_limit_exceeded' | 'insufficient_quota'
    }
  /**
   * A fixed-rate gateway: a token bucket holding `limit` requests, refilled at
   * `limit` per second of simulated time (real time, plus what `advanceTime`
   * adds). A request finding it empty answers 429
   * with `Retry-After` (`retryAfter`, or the whole seconds until a token is back, at least 1).
   */
  readonly rateLimitPerSecond?: {
      /** Requests the bucket holds, and refills per second. */
      readonly limit: number
      /** The `Retry-After` header's value. */
      readonly retryAfter?: string
    }
  /** Every `every`-th gateway request answers `status` (default 500). `rateLimit` wins when both pick one. */
  readonly serverErrors?: {
      /** Which requests: the `every`-th, 2×`every`-th, … of its kind. */
      readonly every: number
      /** The status answered. */
      readonly status?: number
    }
  /** Every `every`-th gateway request answers 500 with a JSON error body of `bytes` bytes (`Infinity`: it never ends). */
  readonly hugeErrorBody?: {
      /** Which requests: the `every`-th, 2×`every`-th, … of its kind. */
      readonly every: number
      /** The body's size (`Infinity`: it never ends). */
      readonly bytes: number
    }
  /** Every `every`-th creation POST: the socket is destroyed before anything is created. */
  readonly resetBeforeCreate?: {
      /** Which requests: the `every`-th, 2×`every`-th, … creation. */
      readonly every: number
    }
  /** Every `every`-th creation POST: the task or response is created, then the socket is destroyed before any reply byte. */
  readonly resetAfterCreate?: {
      /** Which requests: the `every`-th, 2×`every`-th, … creation. */
      readonly every: number
    }
  /** Every `every`-th creation POST: created, then a success reply whose JSON body is cut in the middle (the reply ends cleanly). */
  readonly garbledCreateReply?: {
      /** Which requests: the `every`-th, 2×`every`-th, … creation. */
      readonly every: number
    }
  /** Every `every`-th read of a known task answers a bad reply of this `kind` (see {@link BadPollKind}). */
  readonly badPollReply?: {
      /** Which requests: the `every`-th, 2×`every`-th, … task read. */
      readonly every: number
      /** The bad reply given. */
      readonly kind: BadPollKind
    }
  /** Destroy the socket after writing this many frames of every stream (0: right after the headers). */
  readonly resetStreamAfter?: number
  /** Write a `data:` frame that is not JSON as frame N (from 1) of every stream; the real events follow it. */
  readonly malformedFrameAt?: number
  /** Cut frame N (from 1) of every stream halfway, then end the response cleanly (no reset). */
  readonly closeMidEventAt?: number
  /** Every stream sends only `: ping` comment lines, one every `everyMs` real ms, until the client leaves. */
  readonly pingForever?: {
      /** Real milliseconds between pings. */
      readonly everyMs: number
    }
  /** The first frame of every stream is sent one byte at a time, one every `everyMs` real ms. */
  readonly drip?: {
      /** Real milliseconds between bytes. */
      readonly everyMs: number
    }
  /** Every stream is one `data: xxxx…` line that never ends, written as fast as the client reads. */
  readonly endlessLine?: boolean
  /** Every stream is `data: {…}` lines forever with no blank line (so no event ever completes), as fast as the client reads. */
  readonly endlessData?: boolean
  /** Every 2xx JSON gateway reply is padded with whitespace to about `bytes` bytes (still valid JSON, no Content-Length); `Infinity`: it never ends. */
  readonly hugeReply?: {
      /** The padded reply's size (`Infinity`: it never ends). */
      readonly bytes: number
    }
  /** Every result-file download (`/files/…`) is cut after `bytes` bytes of its body by destroying the socket. */
  readonly dropDownloadAt?: {
      /** Bytes of the body sent before the cut. */
      readonly bytes: number
    }
  /**
   * Each gateway request is faulted with probability `rate` (seeded PRNG,
   * default seed 1), with a fault drawn from those that fit its route; see
   * {@link CHAOS_FAULTS}. Planned faults above win over chaos.
   */
  readonly chaos?: {
      /** Probability, from 0 to 1, that a request is faulted. */
      readonly rate: number
      /** Seed of the generator: the same seed draws the same faults. */
      readonly seed?: number
    }
}

/**
 * Bad task-read replies: `'not-json'` (200, JSON content type, a body that
 * is not JSON), `'wrong-shape'` (JSON without `task_info`), `'other-task'`
 * (a valid completed reply for another task id), `'html'` (a 200
 * `text/html` page, as from a proxy), `'backwards'` (a status earlier than
 * the last one reported for that task; the true reply when the task was
 * only ever reported `pending`).
 */
export type BadPollKind = 'not-json' | 'wrong-shape' | 'other-task' | 'html' | 'backwards'

/** The bad poll kinds, in the order chaos draws them. */
export const BAD_POLL_KINDS: readonly BadPollKind[] = ['not-json', 'wrong-shape', 'other-task', 'html', 'backwards']

/** One fault the simulator injected. */
export interface SimFaultRecord {
  /** Position of the request in `sim.requests`. */
  readonly request: number
  /** The request's method. */
  readonly method: string
  /** The request's path. */
  readonly path: string
  /** The fault, e.g. `'rateLimit'`, `'badPollReply:html'`, `'resetStreamAfter'`. */
  readonly fault: string
  /** Whether a planned fault or chaos injected it. */
  readonly by: 'faults' | 'chaos'
}

/**
 * What chaos draws from, by route: creation POSTs, task reads, streams
 * (a streamed creation draws from creation and stream faults), and any
 * other gateway request.
 */
export const CHAOS_FAULTS = {
  /** Faults of a creation POST. */
  create: ['resetBeforeCreate', 'resetAfterCreate', 'garbledCreateReply', 'rateLimit', 'serviceUnavailable', 'serverError'],
  /** Faults of a streamed creation. */
  streamCreate: ['resetBeforeCreate', 'resetAfterCreate', 'rateLimit', 'serviceUnavailable', 'serverError', 'resetMidStream', 'closeMidEvent'],
  /** Faults of a task read. */
  taskRead: [...BAD_POLL_KINDS.map((kind) => `badPollReply:${kind}` as const), 'serverError', 'serviceUnavailable', 'rateLimit', 'reset'],
  /** Faults of a stream already open. */
  stream: ['resetMidStream', 'closeMidEvent'],
  /** Faults of any other gateway request. */
  other: ['serverError', 'rateLimit'],
} as const

/** A fault chaos can inject. */
export type ChaosFault = (typeof CHAOS_FAULTS)[keyof typeof CHAOS_FAULTS][number]
