import { map, filter, pipe, type OperatorFunction } from 'rxjs'
import { ValidationError } from '../errors/ValidationError.js'
import type { SseMessage } from './parseSse.js'

/**
 * Parses each message's `data` as JSON, dropping the `[DONE]` sentinel some
 * servers end with. A payload without a `type` takes the SSE `event` name.
 * Data that is not JSON ends the stream with a {@link ValidationError}
 * holding the raw text: no event is dropped silently.
 */
export function sseJson(): OperatorFunction<SseMessage, unknown> {
  return pipe(
    filter((message) => message.data !== '[DONE]'),
    map((message) => {
      let json: unknown
      try {
        json = JSON.parse(message.data)
      } catch {
        throw new ValidationError('stream event', [{ path: '', message: 'data is not JSON' }], message.data)
      }
      if (message.event && typeof json === 'object' && json !== null && !('type' in json)) {
        return { type: message.event, ...json }
      }
      return json
    }),
  )
}
