import { catchError, defer, filter, Observable, tap, throwError, timer, switchMap, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs'
import { ConnectionError } from '../errors/ConnectionError.js'
import { TimeoutError } from '../errors/TimeoutError.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/** Options of {@link resumeStream}. */
export interface ResumeOptions {
  /** Reopens the stream of response `id` after sequence number `after`. */
  readonly resume: (id: string, after: number | undefined) => Observable<ResponseStreamEvent>
  /** Reconnections allowed in a row without a new event. */
  readonly attempts: number
  /** The wait before reconnection number `n` (1-based). */
  readonly delay: (n: number) => number
  readonly scheduler: SchedulerLike
  /** The response id when it is known before the first event (a retrieval). */
  readonly responseId?: string
  /** The last sequence number already delivered (a retrieval's `startingAfter`). */
  readonly after?: number
}

/**
 * Keeps a background response's stream going across dropped connections.
 * It remembers the response id and the last `sequence_number` delivered;
 * when the connection drops (a {@link ConnectionError} or {@link TimeoutError}),
 * it reopens the stream with `starting_after` set to that number. Events at
 * or below it are dropped, so the subscriber sees every event exactly once
 * and in order. After `attempts` reconnections in a row without a new event,
 * the drop error goes through.
 */
export function resumeStream(options: ResumeOptions): MonoTypeOperatorFunction<ResponseStreamEvent> {
  return (source) =>
    defer(() => {
      let id = options.responseId
      let last = options.after
      let failures = 0
      // Without sequence numbers a replay cannot be told apart from new events.
      let unnumbered = false
      const follow = (events$: Observable<ResponseStreamEvent>): Observable<ResponseStreamEvent> =>
        events$.pipe(
          filter((event) => last === undefined || event.sequence_number === undefined || event.sequence_number > last),
          tap((event) => {
            failures = 0
            if (event.sequence_number === undefined) unnumbered = true
            else last = event.sequence_number
            const response = (event as { response?: { id?: unknown } }).response
            if (id === undefined && typeof response?.id === 'string') id = response.id
          }),
          catchError((err: unknown) => {
            const dropped = err instanceof ConnectionError || err instanceof TimeoutError
            if (!dropped || unnumbered || id === undefined || failures >= options.attempts) return throwError(() => err)
            failures += 1
            const responseId = id
            return timer(options.delay(failures), options.scheduler).pipe(
              switchMap(() => follow(defer(() => options.resume(responseId, last)))),
            )
          }),
        )
      return follow(source)
    })
}
