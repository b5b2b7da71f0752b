import type { SchedulerLike } from 'rxjs'
import type { RetryOptions } from '../operators/backoff.js'
import type { Transport } from './types.js'

/** Everything a request needs, fixed when the gateway is created. Internal: never handed to users. */
export interface Client {
  readonly baseUrl: string
  readonly transport: Transport
  /** Sent on every request; holds the bearer token. */
  readonly headers: Readonly<Record<string, string>>
  /** The API key, kept only to scrub it from errors (see `redactError`). */
  readonly secret: string
  readonly timeoutMs: number
  readonly retry: RetryOptions | false
  readonly scheduler: SchedulerLike
}
