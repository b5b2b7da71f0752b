import { Observable } from 'rxjs'
import { connectionError, open } from '../transport/exchange.js'
import { observeExchange } from '../transport/observeExchange.js'
import type { Connection, RequestSpec } from '../transport/types.js'
import { SseStream, type SseOptions } from './sseStream.js'

export type { SseOptions }

/**
 * One request whose reply is a stream of server-sent events: emits each
 * event's `data`, parsed as JSON and passed through `decode`, in order. A
 * payload without a `type` takes the SSE `event` name; `[DONE]` is skipped.
 *
 * - After the last event (`isLast`) it completes, and the rest of the body
 *   is still read (briefly) rather than aborted, so the connection is reused
 *   and a browser does not show a finished stream as cancelled.
 * - `timeoutMs` bounds the time without a complete event: comments, pings and
 *   partial bytes do not count as progress. Past it: `TimeoutError`.
 * - One event over `maxEventBytes`: `PayloadTooLargeError`, request aborted.
 * - A body that ends before the last event, or in the middle of one:
 *   `ConnectionError` (a cut stream never passes for a finished one).
 * - Data that is not JSON: `ValidationError` with the raw text.
 *
 * Unsubscribing aborts the request at any stage.
 *
 * @example
 * ```ts
 * // Each event of a streamed response, checked, up to its last one.
 * sse$(client, { method: 'POST', path: '/v1/responses', body }, { decode: parseStreamEvent, isLast: (e) => e.type === 'response.completed' })
 * ```
 */
export function sse$<T>(conn: Connection, spec: RequestSpec, options: SseOptions<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const stream = new SseStream(conn, spec, options, subscriber)
    if (conn.exchange) observeExchange(conn, spec, 'text/event-stream', stream.abort, stream, stream.admitted)
    else read(conn, spec, stream).catch(stream.error)
    // Its `unsubscribe` is the teardown.
    return stream
  })
}

/** Sends the request through the connection's transport and reads the body: pushed chunk by chunk when the transport can (a stop aborts the request, which ends the read), else pulled. */
async function read<T>(conn: Connection, spec: RequestSpec, stream: SseStream<T>): Promise<void> {
  const res = await open(conn, spec, 'text/event-stream', stream.abort, stream.admitted)
  stream.open(res)
  try {
    if (res.read) await res.read(stream.chunk)
    else for await (const chunk of res.body) if (!stream.chunk(chunk)) return
  } catch (err) {
    throw connectionError(spec, err, true)
  }
  stream.end()
}
