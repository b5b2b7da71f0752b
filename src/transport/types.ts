import type { Observable, SchedulerLike } from 'rxjs'
import type { AbortSignalLike } from './abort.js'

/** One HTTP request as the transport sees it: the URL is absolute, headers are final. */
export interface TransportRequest {
  /** The HTTP method. */
  readonly method: 'GET' | 'POST'
  /** The absolute URL. */
  readonly url: string
  /** Every header to send, names in lower case (`authorization` among them when the client has a key). */
  readonly headers: Record<string, string>
  /** The JSON body, already serialised, for a POST. */
  readonly body?: string | undefined
  /** Aborts the request at any stage, the body included. */
  readonly signal: AbortSignalLike
  /** The reply is a long-lived stream (server-sent events), not one document. */
  readonly stream?: boolean
}

/** The reply: the status and headers at once, the body as it arrives. */
export interface TransportResponse {
  /** The HTTP status. */
  readonly status: number
  /** A header's value by name (any case), or undefined when it was not sent. */
  header(name: string): string | undefined
  /** The body's bytes as they arrive; read it once, either this way or with `textUpTo()`. */
  readonly body: AsyncIterable<Uint8Array>
  /**
   * The whole body as text, unbounded. rxgate reads bodies counted instead
   * (with `textUpTo`, or `body`): `Content-Length` does not bound the text
   * of a body the transport decodes (`fetch` does).
   */
  text(): Promise<string>
  /**
   * Optional: the body's text, read at most `limit` bytes (counted as they
   * arrive, after any decoding), without async iteration's cost per reply. `whole` is false when
   * the body went on past the limit: `text` then holds its first `limit`
   * bytes and the rest is dropped. Without it, `body` is iterated.
   */
  textUpTo?(limit: number): Promise<{
    /** The body's text, or its first `limit` bytes'. */
    readonly text: string
    /** Whether `text` is the whole body. */
    readonly whole: boolean
  }>
  /**
   * Optional: hands each chunk of the body to `onChunk` as it arrives, with no
   * promise per chunk; resolves when the body ends, rejects when it fails or
   * the request is aborted (which is how a reader stops). A stream is read
   * this way when the transport offers it, else by iterating `body`.
   */
  read?(onChunk: (chunk: Uint8Array) => void): Promise<void>
}

/**
 * Sends one request. Rejects on a network failure or abort; any HTTP status
 * resolves. The Node default is undici's pooled dispatcher; a `fetch` option
 * wraps any `fetch`.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>

/**
 * One part of a reply delivered as notifications: the head (status and
 * headers) first, then the body's chunks.
 */
export type ExchangePart =
  | {
      /** The reply's status and headers arrived. */
      readonly type: 'head'
      /** The HTTP status. */
      readonly status: number
      /** The headers, names in lower case. */
      readonly headers: Readonly<Record<string, string>>
    }
  | {
      /** A piece of the body arrived. */
      readonly type: 'chunk'
      /** Its bytes. */
      readonly bytes: Uint8Array
    }

/**
 * Sends one request and delivers its reply as Observable notifications: a
 * `head`, then `chunk`s, then completion at the body's end. An error is a
 * network failure (any HTTP status is a `head`); unsubscribing aborts. No
 * Promise lies between the request and the notifications, so a reply timed
 * on a virtual scheduler (RxJS `TestScheduler`) arrives in virtual time.
 * `rxgate/testing` makes one; a {@link Transport} is the Promise-based equivalent.
 */
export type Exchange = (request: TransportRequest) => Observable<ExchangePart>

/** What every exchange with one gateway needs, fixed when the client is made. */
export interface Connection {
  /** The gateway's address without a trailing slash; paths are appended. */
  readonly baseUrl: string
  /** Sends each request (see `ClientOptions.transport` and `fetch`). */
  readonly transport: Transport
  /** When set, requests go through it instead of `transport`: replies as notifications, with no Promise on the way. */
  readonly exchange?: Exchange | undefined
  /** Sent on every request; holds the bearer token. */
  readonly headers: Readonly<Record<string, string>>
  /** The API key, kept only to mask it in errors. */
  readonly secret: string | undefined
  /** Longest silence: no reply, or no complete stream event. */
  readonly timeoutMs: number
  /** Largest JSON reply body read, in bytes. */
  readonly maxBodyBytes: number
  /** Largest single stream event, in bytes. */
  readonly maxEventBytes: number
  /** Clock of every timer. */
  readonly scheduler: SchedulerLike
  /**
   * Admits and observes every exchange (the client's budget and hooks); none: every request goes at once, unobserved.
   * Plumbing between the client and its calls, set by `createClient`: not part of the documented API.
   *
   * @internal
   */
  readonly gate?: Gate | undefined
}

/** Admission and observation of exchanges: implemented by the policy layer (budget) and the client (hooks). */
export interface Gate {
  /**
   * Called before a request is sent. Returns its pass at once when it may go,
   * or a promise of it when it must wait its turn (rejecting if `signal`
   * aborts while it waits).
   */
  enter(spec: RequestSpec, signal: AbortSignalLike): Pass | Promise<Pass>
}

/** One admitted exchange. */
export interface Pass {
  /** The reply's status arrived. */
  answered(status: number): void
  /** The exchange is over: `error` is undefined when the body was read, the string `'aborted'` when its subscriber left, else what failed (a timeout too). Called once. */
  done(error?: unknown): void
}

/** One call to the gateway. `path` starts with `/` and may carry a query. */
export interface RequestSpec {
  readonly method: 'GET' | 'POST'
  readonly path: string
  /** The JSON body, already serialised (and checked in that form). */
  readonly body?: string
  /** Headers of this call only, e.g. `idempotency-key`. */
  readonly headers?: Readonly<Record<string, string>>
  /** Failures in a row before this try of the same call (0 for the first try). */
  readonly retry?: number
  /** The call's trace, when the client has telemetry: each try of the request is an attempt of it. */
  readonly trace?: AttemptTracer | undefined
}

/**
 * What traces the tries of a call's requests (the telemetry's operation,
 * see `Telemetry` in `src/telemetry.ts`). Declared here, where the requests
 * are sent, so that the transport depends on no layer above it.
 */
export interface AttemptTracer {
  /**
   * One try of a request leaves now (the budget, if any, let it go): `url`
   * is absolute, with the path's query. Called once per try, retries and
   * polls included.
   */
  attempt(spec: AttemptSpec, url: string): AttemptTrace
}

/** What a trace is told of one try of a request. */
export interface AttemptSpec {
  /** The request's method. */
  readonly method: 'GET' | 'POST'
  /** The path, with its query. */
  readonly path: string
  /** Failures in a row before this try of the same call: absent or 0 for the first. */
  readonly retry?: number | undefined
}

/** The trace of one try of a request: told of its status and its end, as the budget is. */
export interface AttemptTrace {
  /**
   * Headers to send with this try (e.g. W3C `traceparent` and `tracestate`).
   * They cannot replace the client's own headers (`authorization` among them).
   */
  readonly headers: Readonly<Record<string, string>>
  /** The reply's status arrived. */
  answered(status: number): void
  /** The try is over: `error` is undefined when the body was read, the string `'aborted'` when its subscriber left, else what failed (a timeout too). Called once. */
  done(error?: unknown): void
}
