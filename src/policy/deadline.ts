import { Observable, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs'

/**
 * Ends the source with `error()` if it has not finished within `ms` of
 * subscription (unsubscribing from it, which aborts its request). Without
 * `ms` the source is returned as it is.
 */
export function deadline<T>(ms: number | undefined, scheduler: SchedulerLike, error: () => unknown): MonoTypeOperatorFunction<T> {
  if (ms === undefined) return (source) => source
  return (source) =>
    new Observable<T>((subscriber) => {
      const timer = scheduler.schedule(() => subscriber.error(error()), ms)
      subscriber.add(timer)
      subscriber.add(source.subscribe(subscriber))
    })
}
