import { Observable, type SchedulerAction, type Subscription } from 'rxjs'
import { ConnectionError } from '../errors/ConnectionError.js'
import { PayloadTooLargeError } from '../errors/PayloadTooLargeError.js'
import { TimeoutError } from '../errors/TimeoutError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { AbortSwitch } from '../transport/abort.js'
import { ABORTED, connectionError, open, pathOnly, type Head } from '../transport/exchange.js'
import { observeExchange } from '../transport/observeExchange.js'
import type { Connection, RequestSpec } from '../transport/types.js'
import { sseReader, type SseMessage } from './parseSse.js'

/** What {@link sse$} needs to know of the events it reads. */
export interface SseOptions<T> {
  /** Validates one parsed payload (throws a `ValidationError` to refuse it). */
  readonly decode: (json: unknown) => T
  /** Whether an event is the last of the stream. */
  readonly isLast: (event: T) => boolean
}

/** After the last event, the rest of the body (a `[DONE]`, the close) is read for at most this long, or this many bytes. */
const DRAIN_MS = 2_000
const DRAIN_BYTES = 64 * 1024

/**
 * One request whose reply is a stream of server-sent events: emits each
 * event's `data`, parsed as JSON and passed through `decode`, in order. A
 * payload without a `type` takes the SSE `event` name; `[DONE]` is skipped.
 *
 * - After the last event (`isLast`) it completes, and the rest of the body
 *   is still read (briefly) rather than aborted, so the connection is reused
 *   and a browser does not show a finished stream as cancelled.
 * - `timeoutMs` bounds the time without a complete event: comments, pings and
 *   partial bytes do not count as progress. Past it: {@link TimeoutError}.
 * - One event over `maxEventBytes`: {@link PayloadTooLargeError}, request aborted.
 * - A body that ends before the last event, or in the middle of one:
 *   {@link ConnectionError} (a cut stream never passes for a finished one).
 * - Data that is not JSON: {@link ValidationError} with the raw text.
 *
 * Unsubscribing aborts the request at any stage.
 */
export function sse$<T>(conn: Connection, spec: RequestSpec, { decode, isLast }: SseOptions<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const { scheduler, timeoutMs } = conn
    const path = pathOnly(spec.path)
    const abort = new AbortSwitch()
    let state: 'open' | 'draining' | 'done' = 'open'
    let lastEventAt = scheduler.now()
    // When the chunk being read arrived: every event it completes was complete
    // from then, so the clock is read once a chunk, not once an event.
    let chunkAt = lastEventAt
    let idle: Subscription | undefined

    let opened: Head | undefined
    const fail = (error: unknown): void => {
      if (state !== 'open') return
      state = 'done'
      idle?.unsubscribe()
      abort.abort(error)
      opened?.end(error)
      subscriber.error(error)
    }
    // One timer for the whole stream, started when the budget admits the
    // request (a turn in the queue is not silence): it re-arms itself for the
    // time left since the last event, instead of being reset by every event.
    const admitted = (): void => {
      if (state !== 'open') return
      lastEventAt = scheduler.now()
      idle = scheduler.schedule(function (this: SchedulerAction<unknown>) {
        const quiet = scheduler.now() - lastEventAt
        if (quiet >= timeoutMs) fail(new TimeoutError(spec.method, path, timeoutMs))
        else this.schedule(undefined, timeoutMs - quiet)
      }, timeoutMs)
    }

    const onMessage = (message: SseMessage, atEnd: boolean): void => {
      if (state !== 'open' || message.data === '[DONE]') return
      let json: unknown
      try {
        json = JSON.parse(message.data)
      } catch {
        fail(
          atEnd
            ? new ConnectionError(spec.method, path, 'the stream ended in the middle of an event', true)
            : new ValidationError('stream event', [{ path: '', message: 'data is not JSON' }], message.data),
        )
        return
      }
      if (message.event && typeof json === 'object' && json !== null && !('type' in json)) json = { type: message.event, ...json }
      let event: T
      try {
        event = decode(json)
      } catch (err) {
        fail(err)
        return
      }
      lastEventAt = chunkAt
      // Marked before it is emitted: a subscriber that stops at the last
      // event tears this down while it is being delivered, and must find the
      // body to drain, not to abort.
      const last = isLast(event)
      if (last) {
        state = 'draining'
        idle?.unsubscribe()
      }
      subscriber.next(event)
      if (last) subscriber.complete()
    }
    const reader = sseReader(onMessage, conn.maxEventBytes, () =>
      fail(new PayloadTooLargeError(spec.method, path, 'maxEventBytes', conn.maxEventBytes)),
    )

    let grace: { unsubscribe(): void } | undefined
    // A drain cut short (by its time or byte budget) aborts the unread rest.
    const stopDraining = (): void => {
      if (state !== 'draining') return
      state = 'done'
      grace?.unsubscribe()
      abort.abort()
      opened?.end()
    }
    let drained = 0
    // False once nothing more is wanted of the body.
    const take = (chunk: Uint8Array): boolean => {
      if (state === 'open') {
        chunkAt = scheduler.now()
        reader.feed(chunk)
        return true
      }
      if (state === 'draining' && (drained += chunk.byteLength) > DRAIN_BYTES) stopDraining()
      return state !== 'done'
    }
    // The body ended: what the end completes ends the stream either way, so no timer is left to read the clock.
    const ended = (): void => {
      if (state === 'open') reader.end()
      if (state === 'open') fail(new ConnectionError(spec.method, path, 'the stream ended before the response finished', true))
      if (state === 'draining') {
        // Read to its end: nothing left to abort.
        state = 'done'
        grace?.unsubscribe()
      }
      opened!.end()
    }
    const broken = (err: unknown): void => (state === 'open' ? fail(err) : stopDraining())

    if (conn.exchange) observeExchange(conn, spec, 'text/event-stream', abort, { open: (head) => (opened = head), chunk: take, end: ended, error: broken }, admitted)
    else {
      const read = async (): Promise<void> => {
        const res = (opened = await open(conn, spec, 'text/event-stream', abort, admitted))
        try {
          // Pushed chunk by chunk when the transport can (a stop aborts the request, which ends the read); else pulled.
          if (res.read) await res.read(take)
          else for await (const chunk of res.body) if (!take(chunk)) return
        } catch (err) {
          throw connectionError(spec, err, true)
        }
        ended()
      }
      read().catch(broken)
    }

    return () => {
      idle?.unsubscribe()
      if (state === 'open') {
        state = 'done'
        abort.abort()
        opened?.end(ABORTED)
      } else if (state === 'draining') {
        grace = scheduler.schedule(stopDraining, DRAIN_MS)
      }
    }
  })
}
