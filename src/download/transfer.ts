import type { SchedulerLike, Subscriber, Subscription } from 'rxjs'
import { ConnectionError } from '../errors/ConnectionError.js'
import { asGatewayError, GatewayError } from '../errors/GatewayError.js'
import { isPayloadTooLargeError } from '../errors/PayloadTooLargeError.js'
import { TimeoutError } from '../errors/TimeoutError.js'
import { AbortSwitch } from '../transport/abort.js'
import { connectionError } from '../transport/exchange.js'
import type { Transport } from '../transport/types.js'
import { downloadTransport } from './downloadTransport.js'
import { tooLarge } from './maxBytes.js'
import { openPart, type Part } from './openPart.js'
import { SilenceWatch } from './silence.js'
import type { Sink } from './sinkTypes.js'
import { transferRetryDelay } from './transferRetryDelay.js'
import type { DownloadEvent, DownloadOptions } from './types.js'

/** One download: requests one after another until the whole file is written, a failure that is not a break, or `retries` spent. */
export class Transfer {
  private readonly transport: Transport
  private readonly retries: number
  private readonly timeoutMs: number
  /** The whole file's bound (`maxBytes`, checked and defaulted by the caller). */
  private readonly maxBytes: number
  private readonly spec: { readonly method: 'GET'; readonly path: string }
  private written = 0
  private total: number | undefined
  private ranges = false
  private validator: string | undefined
  /** `ETag` and `Last-Modified` of the reply the written bytes began with. */
  private version: string | undefined
  private resumed = 0
  private restarted = 0
  /** Bytes continued from a partial file an earlier download left; undefined unless the sink keeps partial files. */
  private fromPartial: number | undefined
  private stopped = false
  private attempt: AbortSwitch | undefined
  private readonly silence: SilenceWatch
  private pause: Subscription | undefined

  constructor(
    private readonly url: string,
    private readonly path: string,
    private readonly sink: Sink,
    options: DownloadOptions & { readonly maxBytes: number },
    private readonly scheduler: SchedulerLike,
    private readonly out: Subscriber<DownloadEvent>,
  ) {
    this.transport = downloadTransport(options)
    this.retries = options.retries ?? 3
    this.timeoutMs = options.timeoutMs ?? 60_000
    this.maxBytes = options.maxBytes
    this.silence = new SilenceWatch(scheduler, this.timeoutMs)
    this.spec = { method: 'GET', path }
  }

  async run(): Promise<void> {
    let type: string | undefined
    if (!(await this.continueLeftover())) return
    // `retries` caps the requests after the first, whatever failed and however many bytes came: at most retries + 1 in all.
    for (let retry = 0; ; ) {
      try {
        const part = await this.open()
        if (!part) throw connectionError(this.spec, new Error('the server answered a byte range that does not fit the file'), true)
        type ??= part.type
        await this.pump(part)
        // Unsubscribed mid-body: the file is not finished, whatever its length says.
        if (this.stopped) return
        // Short of the end this part announced (a 206 of unknown size too) or of the file's size: a body that broke off.
        if (!this.endedEarly(part)) break
        throw connectionError(this.spec, new Error('the body ended early'), true)
      } catch (error) {
        if (this.stopped) return
        const failure = this.silence.stalled ? new TimeoutError('GET', this.path, this.timeoutMs) : error
        this.attempt?.abort()
        this.attempt = undefined
        this.silence.release()
        const delay = transferRetryDelay(failure, ++retry, this.retries)
        if (delay === undefined) return this.fail(failure)
        if (delay > 0 && !(await this.wait(delay))) return
      }
    }
    try {
      const saved = await this.sink.finish(type)
      this.end()
      if (this.stopped) return
      const partial = this.fromPartial === undefined ? {} : { fromPartial: this.fromPartial }
      this.out.next({ type: 'saved', bytes: this.written, ...saved, resumed: this.resumed, restarted: this.restarted, ...partial })
      this.out.complete()
    } catch (error) {
      if (!this.stopped) this.fail(error)
    }
  }

  /**
   * Takes up the bytes an earlier download left on disk (a sink that keeps
   * partial files): the first request asks only for the rest, with the
   * validator they were written under. False when the download ended here.
   */
  private async continueLeftover(): Promise<boolean> {
    if (!this.sink.leftover) return true
    try {
      const left = await this.sink.leftover()
      this.fromPartial = left?.bytes ?? 0
      if (left) {
        this.written = left.bytes
        this.total = left.total
        this.ranges = true
        this.validator = left.validator
        this.version = left.version
      }
      return !this.stopped
    } catch (error) {
      if (!this.stopped) this.fail(error)
      return false
    }
  }

  /** Unsubscribed: abort the request, and remove what was written (a sink that keeps partial files keeps them). */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.end()
    void this.sink.discard()
  }

  /**
   * Asks for the rest of the file (or the whole of it) and decides where the
   * answer fits. The rest is asked for only when the first reply gave a
   * validator (a strong `ETag` or `Last-Modified`): without one, a changed
   * file could not be told from the same one, so the file starts over.
   */
  private async open(): Promise<Part | undefined> {
    const abort = (this.attempt = new AbortSwitch())
    this.silence.watch(abort)
    const from = this.ranges && this.validator !== undefined ? this.written : 0
    const part = await openPart(this.transport, this.url, this.path, from, this.validator, abort)
    // An announced size past the bound is refused before a byte of the body is read.
    if (part && Math.max(part.end ?? 0, part.total ?? 0) > this.maxBytes) {
      abort.abort()
      throw tooLarge(this.path, this.maxBytes)
    }
    if (part && from > 0 && part.start === from) {
      const resized = this.total !== undefined && part.total !== undefined && part.total !== this.total
      if (part.version !== this.version || resized) {
        // Another version of the file (a server that ignored If-Range): its bytes must never follow ours.
        abort.abort()
        this.ranges = false
        await this.restart()
        throw new ConnectionError('GET', this.path, 'the file changed on the server during the download (its ETag, Last-Modified or size differ); it is downloaded again from byte 0', true)
      }
      this.resumed++
    } else if (part?.start === 0) {
      // The whole file again: the first request, a server that ignored Range, or a file that changed.
      if (this.written > 0) await this.restart()
      this.total = part.total
      this.version = part.version
      // Recorded before the first byte: a process that dies from here leaves a part whose version is known.
      await this.sink.begin?.({ validator: part.ranges ? part.validator : undefined, version: part.version, total: part.total })
    } else {
      // No answer to start from, or a range other than the one asked for: trust none of it.
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
        `GET ${this.path}: the transfer broke after ${this.written} bytes and could not be resumed safely; a stream cannot be rewound to begin again. Download to a file or a Blob to allow starting over.`,
      )
    }
    this.written = 0
    if (this.fromPartial !== undefined) this.fromPartial = 0
    this.restarted++
  }

  /** Writes the body chunk by chunk; the next chunk is read only once the target has taken this one. */
  private async pump(part: Part): Promise<void> {
    const chunks = part.res.body[Symbol.asyncIterator]()
    // No byte may land past what the reply announced: a longer body would make a file larger than the original.
    const limit = Math.min(part.end ?? Number.POSITIVE_INFINITY, this.total ?? Number.POSITIVE_INFINITY)
    for (;;) {
      let step: IteratorResult<Uint8Array>
      try {
        step = await chunks.next()
      } catch (error) {
        throw connectionError(this.spec, error, true)
      }
      if (step.done || this.stopped) return
      if (this.written + step.value.byteLength > limit) throw this.overrun(limit)
      // Counted as written (decoded, the whole file): a compressed or unannounced body stops at the bound.
      if (this.written + step.value.byteLength > this.maxBytes) throw tooLarge(this.path, this.maxBytes)
      // The time the target takes to write is not the server's silence.
      this.silence.busy()
      await this.sink.write(step.value)
      this.silence.heard()
      this.written += step.value.byteLength
      if (this.stopped) return
      const { written: bytes, total } = this
      this.out.next({ type: 'progress', bytes, total, fraction: total ? Math.min(1, bytes / total) : undefined })
    }
  }

  /** The body ended cleanly before the end its part announced, or before the whole file's size. */
  private endedEarly(part: Part): boolean {
    return (part.end !== undefined && this.written < part.end) || (this.total !== undefined && this.written < this.total)
  }

  private overrun(limit: number): GatewayError {
    return new GatewayError(
      `GET ${this.path}: the server sent more than the ${limit} bytes it announced (Content-Length or Content-Range); the download is given up, as a longer file would not be the original.`,
    )
  }

  private wait(ms: number): Promise<boolean> {
    // A stop while waiting clears the timer and leaves the promise pending: nothing runs after it.
    return new Promise((resolve) => (this.pause = this.scheduler.schedule(() => resolve(!this.stopped), ms)))
  }

  private fail(error: unknown): void {
    this.end()
    // A file past `maxBytes` leaves no partial file: continuing it would only meet the same bound.
    void this.sink.discard(isPayloadTooLargeError(error)).then(() => this.out.error(asGatewayError(error)))
  }

  private end(): void {
    this.pause?.unsubscribe()
    this.silence.stop()
    this.attempt?.abort()
  }
}
