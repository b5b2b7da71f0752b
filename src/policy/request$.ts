import type { Observable } from 'rxjs'
import { json$ } from '../transport/json$.js'
import type { Connection, RequestSpec } from '../transport/types.js'
import { loop$ } from './loop.js'

/** A plan's `retry`: after failure number `failures` in a row, the wait before trying again, or `undefined` to give up. */
export type RetryRule = (error: unknown, failures: number) => number | undefined

/**
 * One JSON request under a retry rule, the reply passed through `decode`
 * inside each attempt, so a reply that cannot be read is judged by the rule
 * like any other failure. Emits the decoded reply, then completes; a final
 * failure goes through `fail` when given.
 */
export function request$<T>(
  conn: Connection,
  spec: RequestSpec,
  decode: (json: unknown) => T,
  retry: RetryRule,
  fail?: (error: unknown) => unknown,
): Observable<T> {
  return loop$<T, T>(() => ({
    attempt: (_n, failures) => json$(conn, failures ? { ...spec, retry: failures } : spec, decode),
    take: (value, out) => (out.next(value), 'done'),
    retry,
    ...(fail ? { fail } : {}),
    scheduler: conn.scheduler,
  }))
}
