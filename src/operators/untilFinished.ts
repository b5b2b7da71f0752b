import { Observable, type MonoTypeOperatorFunction } from 'rxjs'
import { ConnectionError } from '../errors/ConnectionError.js'
import { ResponseFailedError } from '../errors/ResponseFailedError.js'
import type { ResponseStreamEvent } from '../validation/streamEvents.js'

/**
 * Ends a response stream where the response ends. `response.completed` and
 * `response.incomplete` are emitted, then the stream completes (whatever the
 * server sends after, `[DONE]` included, is not waited for). `response.failed`
 * and `error` events (flat or nested) end it with a {@link ResponseFailedError}.
 * A stream that closes before any of these ends with a {@link ConnectionError}:
 * a cut stream must not pass for a finished one.
 */
export function untilFinished(method: string, path: string): MonoTypeOperatorFunction<ResponseStreamEvent> {
  return (source) =>
    new Observable<ResponseStreamEvent>((subscriber) => {
      let responseId: string | undefined
      const subscription = source.subscribe({
        next: (event) => {
          switch (event.type) {
            case 'response.created':
            case 'response.queued':
            case 'response.in_progress':
              responseId = event.response.id
              subscriber.next(event)
              return
            case 'response.completed':
            case 'response.incomplete':
              subscriber.next(event)
              subscriber.complete()
              return
            case 'response.failed':
              subscriber.error(
                new ResponseFailedError(
                  { responseId: event.response.id, code: event.response.error?.code, message: event.response.error?.message },
                  event.response,
                ),
              )
              return
            case 'error': {
              const detail = event.error ?? event
              subscriber.error(new ResponseFailedError({ responseId, code: detail.code, message: detail.message }))
              return
            }
            default:
              subscriber.next(event)
          }
        },
        error: (err) => subscriber.error(err),
        complete: () =>
          subscriber.error(new ConnectionError(method, path, 'the stream ended before the response finished', true)),
      })
      return subscription
    })
}
