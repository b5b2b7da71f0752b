import { createParser, type EventSourceMessage } from 'eventsource-parser'

export type { EventSourceMessage as SseMessage }

/** Reads the bytes of a server-sent-events body. */
export interface SseReader {
  /** Feeds the next chunk; messages it completes are delivered at once. */
  feed(chunk: Uint8Array): void
  /** Ends the body: a last message the server did not close with a blank line is delivered with `atEnd` set. */
  end(): void
}

/**
 * Turns the byte chunks of an SSE body into messages, as the format defines
 * them: chunks may split a line, a `\r\n` or a multibyte character anywhere;
 * comment lines (`: ping`) are skipped; multi-line `data` is joined.
 *
 * Memory is bounded: the parser must buffer an unfinished event, so the
 * bytes received since the last complete message are counted, and past
 * `maxEventBytes` `onTooLarge` is called (comments count, so a flood of
 * pings cannot hide a growing buffer). The count is exact to within one chunk.
 *
 * A message completed only by the end of the body is flagged `atEnd`: it may
 * be a last event the server did not close with a blank line, or an event
 * cut short by a connection that closed cleanly. The caller tells them apart.
 */
export function sseReader(
  onMessage: (message: EventSourceMessage, atEnd: boolean) => void,
  maxEventBytes: number,
  onTooLarge: () => void,
): SseReader {
  const decoder = new TextDecoder()
  let pending = 0
  let completed = false
  let atEnd = false
  const parser = createParser({
    onEvent: (message) => {
      completed = true
      onMessage(message, atEnd)
    },
  })
  return {
    feed(chunk) {
      completed = false
      parser.feed(decoder.decode(chunk, { stream: true }))
      pending = completed ? chunk.byteLength : pending + chunk.byteLength
      if (pending > maxEventBytes) onTooLarge()
    },
    end() {
      atEnd = true
      parser.feed(`${decoder.decode()}\n\n`)
    },
  }
}
