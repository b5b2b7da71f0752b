import type { SchedulerLike, Subscriber, Subscription } from 'rxjs'
import { asGatewayError, GatewayError } from '../errors/GatewayError.js'
import { TimeoutError } from '../errors/TimeoutError.js'
import { DEFAULTS } from '../policy/defaults.js'
import { retryWait } from '../policy/delays.js'
import { isTransient } from '../policy/retryable.js'
import { AbortSwitch } from '../transport/abort.js'
import { connectionError } from '../transport/exchange.js'
import { fetchTransport } from '../transport/fetchTransport.js'
import type { Transport } from '../transport/types.js'
import { openPart, type Part } from './openPart.js'
import type { Sink } from './sinkTypes.js'
import type { DownloadEvent, DownloadOptions } from './types.js'

/** One download: attempts in a row until the whole file is written, or a failure that is not a break. */
export class Transfer {
  private readonly transport: Transport
  private readonly retries: number
  private readonly timeoutMs: number
  private readonly spec: { readonly method: 'GET'; readonly path: string }
  private written = 0
  private total: number | undefined
  private ranges = false
  private validator: string | undefined
  private resumed = 0
  private restarted = 0
  private stopped = false
  private attempt: AbortSwitch | undefined
  private stalled = false
  private lastByteAt = 0
  private timer: Subscription | undefined
  private pause: Subscription | undefined

  constructor(
    private readonly url: string,
    private readonly path: string,
    private readonly sink: Sink,
    options: DownloadOptions,
    private readonly scheduler: SchedulerLike,
    private readonly out: Subscriber<DownloadEvent>,
  ) {
    this.transport = options.transport ?? fetchTransport(options.fetch ?? ((input, init) => globalThis.fetch(input, init)))
    this.retries = options.retries ?? 3
    this.timeoutMs = options.timeoutMs ?? 60_000
    this.spec = { method: 'GET', path }
  }

  async run(): Promise<void> {
    let type: string | undefined
    for (let breaks = 0; ; ) {
      const before = this.written
      try {
        const part = await this.open()
        if (!part) throw connectionError(this.spec, new Error('the server answered a byte range that does not fit the file'), true)
        type ??= part.type
        await this.pump(part)
        // Unsubscribed mid-body: the file is not finished, whatever its length says.
        if (this.stopped) return
        if (this.total === undefined || this.written >= this.total) break
        throw connectionError(this.spec, new Error('the body ended early'), true)
      } catch (error) {
        if (this.stopped) return
        const failure = this.stalled ? new TimeoutError('GET', this.path, this.timeoutMs) : error
        this.attempt?.abort()
        this.attempt = undefined
        if (this.written > before) breaks = 0
        // The first break is taken up at once (a dropped connection rarely means a busy server); later ones wait.
        const delay = ++breaks > this.retries || !isTransient(failure) ? undefined : breaks === 1 && !hasRetryAfter(failure) ? 0 : retryWait(failure, breaks - 1, DEFAULTS.retry)
        if (delay === undefined) return this.fail(failure)
        if (delay > 0 && !(await this.wait(delay))) return
      }
    }
    try {
      const saved = await this.sink.finish(type)
      this.end()
      if (this.stopped) return
      this.out.next({ type: 'saved', bytes: this.written, ...saved, resumed: this.resumed, restarted: this.restarted })
      this.out.complete()
    } catch (error) {
      if (!this.stopped) this.fail(error)
    }
  }

  /** Unsubscribed: abort the request, and remove what was written. */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.end()
    void this.sink.discard()
  }

  /** Asks for the rest of the file (or the whole of it) and decides where the answer fits. */
  private async open(): Promise<Part | undefined> {
    const abort = (this.attempt = new AbortSwitch())
    this.stalled = false
    this.watch()
    const from = this.ranges ? this.written : 0
    const part = await openPart(this.transport, this.url, this.path, from, this.validator, abort)
    if (!part) {
      abort.abort()
      this.ranges = false
      return undefined
    }
    const resized = from > 0 && this.total !== undefined && part.total !== undefined && part.total !== this.total
    if (part.start === from && !resized) {
      if (from > 0) this.resumed++
      else if (this.written > 0) await this.restart()
    } else if (part.start === 0) {
      // The whole file again: the server ignored Range, or the file changed.
      await this.restart()
      this.total = part.total
    } else {
      // A range other than the one asked for, or one of a file that changed size: trust none of it.
      abort.abort()
      this.ranges = false
      return undefined
    }
    this.total = part.total ?? this.total
    this.ranges = part.ranges
    this.validator = part.validator
    return part
  }

  /** Begins the target again at byte 0, or fails when it cannot be rewound. */
  private async restart(): Promise<void> {
    if (!(await this.sink.restart())) {
      throw new GatewayError(
        `GET ${this.path}: the transfer broke after ${this.written} bytes and the server would not resume it; a stream cannot be rewound to begin again. Download to a file or a Blob to allow starting over.`,
      )
    }
    this.written = 0
    this.restarted++
  }

  /** Writes the body chunk by chunk; the next chunk is read only once the target has taken this one. */
  private async pump(part: Part): Promise<void> {
    const chunks = part.res.body[Symbol.asyncIterator]()
    for (;;) {
      let step: IteratorResult<Uint8Array>
      try {
        step = await chunks.next()
      } catch (error) {
        throw connectionError(this.spec, error, true)
      }
      if (step.done || this.stopped) return
      this.lastByteAt = this.scheduler.now()
      await this.sink.write(step.value)
      this.written += step.value.byteLength
      if (this.stopped) return
      const { written: bytes, total } = this
      this.out.next({ type: 'progress', bytes, total, fraction: total ? Math.min(1, bytes / total) : undefined })
    }
  }

  /** One timer per download, for silence: it looks at the time of the last byte rather than being reset by each. */
  private watch(): void {
    this.lastByteAt = this.scheduler.now()
    if (this.timer) return
    const check = () => {
      this.timer = undefined
      if (this.stopped) return
      const quiet = this.scheduler.now() - this.lastByteAt
      if (this.attempt && !this.stalled && quiet >= this.timeoutMs) {
        this.stalled = true
        this.attempt.abort()
      }
      const left = this.attempt && !this.stalled ? this.timeoutMs - quiet : this.timeoutMs
      this.timer = this.scheduler.schedule(check, Math.max(1, left))
    }
    this.timer = this.scheduler.schedule(check, this.timeoutMs)
  }

  private wait(ms: number): Promise<boolean> {
    // A stop while waiting clears the timer and leaves the promise pending: nothing runs after it.
    return new Promise((resolve) => (this.pause = this.scheduler.schedule(() => resolve(!this.stopped), ms)))
  }

  private fail(error: unknown): void {
    this.end()
    void this.sink.discard().then(() => this.out.error(asGatewayError(error)))
  }

  private end(): void {
    this.pause?.unsubscribe()
    this.timer?.unsubscribe()
    this.timer = undefined
    this.attempt?.abort()
  }
}

function hasRetryAfter(error: unknown): boolean {
  return typeof (error as { retryAfterMs?: unknown } | null)?.retryAfterMs === 'number'
}
