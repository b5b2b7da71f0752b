import type { SchedulerLike } from 'rxjs'
import type { AbortSignalLike } from './abort.js'

/** One HTTP request as the transport sees it: the URL is absolute, headers are final. */
export interface TransportRequest {
  readonly method: 'GET' | 'POST'
  readonly url: string
  readonly headers: Record<string, string>
  readonly body?: string | undefined
  /** Aborts the request at any stage, the body included. */
  readonly signal: AbortSignalLike
  /** The reply is a long-lived stream (server-sent events), not one document. */
  readonly stream?: boolean
}

/** The reply: the status and headers at once, the body as it arrives. */
export interface TransportResponse {
  readonly status: number
  header(name: string): string | undefined
  /** The body's bytes as they arrive; read it once, either this way or with `text()`. */
  readonly body: AsyncIterable<Uint8Array>
  /** The whole body as text; used only when its length is known to be within the limit. */
  text(): Promise<string>
  /**
   * Optional, for a body of unknown length: its text, read at most `limit`
   * bytes, without async iteration's cost per reply. `whole` is false when
   * the body went on past the limit: `text` then holds its first `limit`
   * bytes and the rest is dropped. Without it, `body` is iterated.
   */
  textUpTo?(limit: number): Promise<{ readonly text: string; readonly whole: boolean }>
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

/** What every exchange with one gateway needs, fixed when the client is made. */
export interface Connection {
  /** The gateway's address without a trailing slash; paths are appended. */
  readonly baseUrl: string
  readonly transport: Transport
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
  /** Admits and observes every exchange (the client's budget and hooks); none: every request goes at once, unobserved. */
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
  /** The exchange is over (body read, failed, or aborted: then `error`). Called once. */
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
}
