import type { AbortSignalLike } from './abort.js'

/** One HTTP request as the transport sees it: the URL is absolute, headers are final. */
export interface TransportRequest {
  readonly method: 'GET' | 'POST'
  readonly url: string
  readonly headers: Record<string, string>
  readonly body?: string | undefined
  /** Aborts the request at any stage, the body included. */
  readonly signal: AbortSignalLike
}

/** The reply: the status and headers at once, the body as it arrives. */
export interface TransportResponse {
  readonly status: number
  header(name: string): string | undefined
  /** The body's bytes as they arrive; read it once, either this way or with `text()`. */
  readonly body: AsyncIterable<Uint8Array>
  text(): Promise<string>
}

/**
 * Sends one request. Rejects on a network failure or abort; any HTTP status
 * resolves. The Node default is undici's pooled `request`; `createGateway({ fetch })`
 * wraps any `fetch`.
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>
