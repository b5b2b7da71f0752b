import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { Observable, type OperatorFunction } from 'rxjs'

export type { EventSourceMessage as SseMessage }

/**
 * Turns text chunks of a server-sent-events body into messages. Chunks may
 * split a line anywhere, `\r\n` included; comment lines (`: ping`) are
 * skipped and multi-line `data` is joined, as the SSE format defines. A last
 * event that the server did not end with a blank line is still delivered.
 *
 * Unsubscribing unsubscribes from the chunks (and so aborts the request).
 */
export function parseSse(): OperatorFunction<string, EventSourceMessage> {
  return (chunks) =>
    new Observable((subscriber) => {
      const parser = createParser({ onEvent: (message) => subscriber.next(message) })
      return chunks.subscribe({
        next: (chunk) => parser.feed(chunk),
        error: (err) => subscriber.error(err),
        complete: () => {
          parser.feed('\n\n')
          subscriber.complete()
        },
      })
    })
}
