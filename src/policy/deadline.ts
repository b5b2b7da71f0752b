import { Observable, type SchedulerLike } from 'rxjs'

/**
 * Ends `source` with `error()` if it has not finished within `ms` of
 * subscription (unsubscribing from it, which aborts its request). The timer
 * is cleared when the source finishes or is unsubscribed.
 */
export function deadline<T>(source: Observable<T>, ms: number, scheduler: SchedulerLike, error: () => unknown): Observable<T> {
  return new Observable<T>((subscriber) => {
    subscriber.add(scheduler.schedule(() => subscriber.error(error()), ms))
    subscriber.add(source.subscribe(subscriber))
  })
}
