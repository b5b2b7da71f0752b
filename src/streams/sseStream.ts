import { Subscription, type SchedulerAction, type Subscriber } from 'rxjs'
import { ConnectionError } from '../errors/ConnectionError.js'
import { PayloadTooLargeError } from '../errors/PayloadTooLargeError.js'
import { TimeoutError } from '../errors/TimeoutError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { AbortSwitch } from '../transport/abort.js'
import { ABORTED, pathOnly, type Head } from '../transport/exchange.js'
import type { ReplyHandlers } from '../transport/observeExchange.js'
import type { Connection, RequestSpec } from '../transport/types.js'
import { sseReader, type SseMessage, type SseReader } from './parseSse.js'

/** What `sse$` needs to know of the events it reads. */
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
 * Where a stream is. `open`: events are read and emitted, the idle timer
 * runs. `draining`: the last event is out and the stream completed; the
 * rest of the body is read, for at most 2 s and 64 KB. `done`: nothing more
 * is read or emitted, and the exchange has ended.
 *
 *     open ── the last event (finish) ──▶ draining ── read to its end (drained), or cut short (stopDraining) ──▶ done
 *       └──── a failure (fail), the subscriber leaving (cancel) ─────────────────────────────────────────────▶ done
 */
type State = 'open' | 'draining' | 'done'

/** The reply before it opens: a request that fails before then ends its exchange itself. */
const UNOPENED: Pick<Head, 'end'> = {
  end() {
    // Nothing to end yet.
  },
}

/**
 * One subscription of `sse$`: its state, one small method per transition,
 * and the handlers that lead to them (from the exchange, the parser, the
 * timers and the teardown). Handlers that are passed around alone are bound
 * fields; the rest are methods, and the timers get the stream as their
 * state: a subscription costs one object and five functions, an event or a
 * chunk nothing.
 */
export class SseStream<T> implements ReplyHandlers {
  private state: State = 'open'
  readonly abort = new AbortSwitch()
  private readonly reader: SseReader
  private readonly path: string
  private opened: Pick<Head, 'end'> = UNOPENED
  private idle = Subscription.EMPTY
  private grace = Subscription.EMPTY
  private lastEventAt: number
  // When the chunk being read arrived: every event it completes was complete
  // from then, so the clock is read once a chunk, not once an event.
  private chunkAt: number
  private drainedBytes = 0

  constructor(
    private readonly conn: Connection,
    private readonly spec: RequestSpec,
    private readonly options: SseOptions<T>,
    private readonly subscriber: Subscriber<T>,
  ) {
    this.path = pathOnly(spec.path)
    this.lastEventAt = this.chunkAt = conn.scheduler.now()
    this.reader = sseReader(this.message, conn.maxEventBytes, this.tooLarge)
  }

  // The transitions.

  /** open → draining, at the last event. Marked before it is emitted: a subscriber that stops at the last event tears this down while it is being delivered, and must find the body to drain, not to abort. */
  private finish(event: T): void {
    this.state = 'draining'
    this.idle.unsubscribe()
    this.subscriber.next(event)
    this.subscriber.complete()
  }

  /** open → done: the stream ends in `error`, and the request is aborted. */
  private fail(error: unknown): void {
    this.state = 'done'
    this.idle.unsubscribe()
    this.abort.abort(error)
    this.opened.end(error)
    this.subscriber.error(error)
  }

  /** open → done: the subscriber left, and the request is aborted. */
  private cancel(): void {
    this.state = 'done'
    this.idle.unsubscribe()
    this.abort.abort()
    this.opened.end(ABORTED)
  }

  /** draining → done: the body was read to its end; nothing is left to abort. */
  private drained(): void {
    this.state = 'done'
    this.grace.unsubscribe()
  }

  /** draining → done: the drain is cut short (its time or bytes ran out, or the body broke), and the unread rest is aborted. */
  stopDraining(): void {
    this.state = 'done'
    this.grace.unsubscribe()
    this.abort.abort()
    this.opened.end()
  }

  // What leads to them.

  /**
   * The budget let the request go: the idle timer starts now (a turn in the
   * queue is not silence). One timer for the whole stream: it re-arms itself
   * for the time left since the last event, instead of being reset by every event.
   */
  readonly admitted = (): void => {
    if (this.state !== 'open') return
    this.lastEventAt = this.conn.scheduler.now()
    this.idle = this.conn.scheduler.schedule(idleCheck, this.conn.timeoutMs, this)
  }

  /** The idle timer is due: past `timeoutMs` without an event the stream fails, else the timer waits for the time left. */
  checkIdle(timer: SchedulerAction<Timers>): void {
    const { scheduler, timeoutMs } = this.conn
    const quiet = scheduler.now() - this.lastEventAt
    if (quiet >= timeoutMs) this.fail(new TimeoutError(this.spec.method, this.path, timeoutMs))
    else timer.schedule(this, timeoutMs - quiet)
  }

  /** The reply opened (its status is 2xx). */
  open(head: Head): void {
    // Done already (the subscriber left, or the wait for the head timed out, while the reply was on its way): end this exchange too, or it would hold its budget slot and span.
    if (this.state === 'done') head.end(ABORTED)
    else this.opened = head
  }

  /** Bytes of the body: parsed while open, counted while draining. False once nothing more is wanted of the body. */
  readonly chunk = (bytes: Uint8Array): boolean => {
    if (this.state === 'open') {
      this.chunkAt = this.conn.scheduler.now()
      this.reader.feed(bytes)
    } else if (this.state === 'draining' && (this.drainedBytes += bytes.byteLength) > DRAIN_BYTES) this.stopDraining()
    return this.state !== 'done'
  }

  /** An event the parser completed; the ones after the last event or a failure (in the same chunk) are not read. */
  private readonly message = (message: SseMessage, atEnd: boolean): void => {
    if (this.state !== 'open' || message.data === '[DONE]') return
    let json: unknown
    try {
      json = JSON.parse(message.data)
    } catch {
      return this.fail(
        atEnd
          ? new ConnectionError(this.spec.method, this.path, 'the stream ended in the middle of an event', true)
          : new ValidationError('stream event', [{ path: '', message: 'data is not JSON' }], message.data),
      )
    }
    if (message.event && typeof json === 'object' && json !== null && !('type' in json)) json = { type: message.event, ...json }
    let event: T
    try {
      event = this.options.decode(json)
    } catch (err) {
      return this.fail(err)
    }
    this.lastEventAt = this.chunkAt
    if (this.options.isLast(event)) this.finish(event)
    else this.subscriber.next(event)
  }

  /** One event grew past `maxEventBytes`; a chunk that also held the last event is drained instead. */
  private readonly tooLarge = (): void => {
    if (this.state === 'open') this.fail(new PayloadTooLargeError(this.spec.method, this.path, 'maxEventBytes', this.conn.maxEventBytes))
  }

  /** The body ended: what the end completes ends the stream either way, so no timer is left to read the clock. */
  end(): void {
    if (this.state === 'open') {
      // A last event the server did not close with a blank line is delivered now.
      this.reader.end()
      if (this.state === 'open') this.fail(new ConnectionError(this.spec.method, this.path, 'the stream ended before the response finished', true))
    }
    if (this.state === 'draining') this.drained()
    this.opened.end()
  }

  /** The exchange failed: an open stream fails with it, a drain stops quietly. */
  readonly error = (error: unknown): void => {
    if (this.state === 'open') this.fail(error)
    else if (this.state === 'draining') this.stopDraining()
  }

  /** The teardown: while open the subscriber left; while draining the stream completed, and the rest is read for at most {@link DRAIN_MS}. */
  unsubscribe(): void {
    if (this.state === 'open') this.cancel()
    else if (this.state === 'draining') this.grace = this.conn.scheduler.schedule(graceOver, DRAIN_MS, this)
  }
}

/** What the timers call on a stream: passed as their state, so that no timer needs a function of its own. */
interface Timers {
  checkIdle(timer: SchedulerAction<Timers>): void
  stopDraining(): void
}

function idleCheck(this: SchedulerAction<Timers>, stream: Timers): void {
  stream.checkIdle(this)
}

function graceOver(this: SchedulerAction<Timers>, stream: Timers): void {
  stream.stopDraining()
}
