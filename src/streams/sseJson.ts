import { Observable, type OperatorFunction } from 'rxjs'
import { ValidationError } from '../errors/ValidationError.js'
import type { SseMessage } from './parseSse.js'

/**
 * Parses each message's `data` as JSON and passes it through `decode` (a
 * validator), dropping the `[DONE]` sentinel some servers end with. A
 * payload without a `type` takes the SSE `event` name. Data that is not JSON
 * ends the stream with a {@link ValidationError} holding the raw text: no
 * event is dropped silently. One operator does all three, since it runs
 * once per event of streams that carry tens of thousands.
 */
export function sseJson<T = unknown>(decode: (json: unknown) => T = (json) => json as T): OperatorFunction<SseMessage, T> {
  return (messages) =>
    new Observable<T>((subscriber) =>
      messages.subscribe({
        next: (message) => {
          if (message.data === '[DONE]') return
          let json: unknown
          try {
            json = JSON.parse(message.data)
          } catch {
            subscriber.error(new ValidationError('stream event', [{ path: '', message: 'data is not JSON' }], message.data))
            return
          }
          if (message.event && typeof json === 'object' && json !== null && !('type' in json)) {
            json = { type: message.event, ...json }
          }
          let value: T
          try {
            value = decode(json)
          } catch (err) {
            subscriber.error(err)
            return
          }
          subscriber.next(value)
        },
        error: (err) => subscriber.error(err),
        complete: () => subscriber.complete(),
      }),
    )
}
