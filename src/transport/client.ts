import type { SchedulerLike } from 'rxjs'
import type { RetryOptions } from '../operators/backoff.js'
import type { Transport } from './types.js'

/** Everything a request needs, fixed when the gateway is created. Internal: never handed to users. */
export interface Client {
  readonly baseUrl: string
  readonly transport: Transport
  /** Sent on every request; holds the bearer token. */
  readonly headers: Readonly<Record<string, string>>
  /** The API key, kept only to scrub it from anything the gateway echoes back. */
  readonly secret: string
  readonly timeoutMs: number
  readonly retry: RetryOptions | false
  readonly scheduler: SchedulerLike
}

/** Replaces every occurrence of the key in text that came from outside. */
export function redact(text: string, secret: string): string {
  return secret && text.includes(secret) ? text.split(secret).join('[redacted]') : text
}
