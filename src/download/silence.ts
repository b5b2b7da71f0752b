import type { SchedulerLike, Subscription } from 'rxjs'
import type { AbortSwitch } from '../transport/abort.js'

/**
 * The silence timer of one download: it aborts the request in flight once
 * no byte has come for `timeoutMs`. One timer serves every request of the
 * download; it looks at the time of the last byte rather than being reset
 * by each, which would cost a timer per chunk. While the target writes a
 * chunk the clock stands still: a slow disk or stream is not a silent
 * server (the next chunk is not read until the write is done).
 *
 * @example
 * ```ts
 * const silence = new SilenceWatch(asyncScheduler, 60_000)
 * silence.watch(abort)  // a request begins
 * silence.busy()        // a chunk arrived; the target is writing it
 * silence.heard()       // the target took it: silence is measured from now
 * silence.release()     // the request is over
 * silence.stop()        // the download is over
 * ```
 */
export class SilenceWatch {
  /** The request in flight was aborted for silence. */
  stalled = false
  private lastByteAt = 0
  /** The target is writing a chunk: no silence can build up. */
  private writing = false
  private attempt: AbortSwitch | undefined
  private timer: Subscription | undefined

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly timeoutMs: number,
  ) {}

  /** A request begins: silence is measured from now, and aborts `attempt` once it reaches `timeoutMs`. */
  watch(attempt: AbortSwitch): void {
    this.attempt = attempt
    this.stalled = false
    this.writing = false
    this.lastByteAt = this.scheduler.now()
    if (this.timer) return
    const check = () => {
      this.timer = undefined
      const quiet = this.scheduler.now() - this.lastByteAt
      if (this.attempt && !this.stalled && !this.writing && quiet >= this.timeoutMs) {
        this.stalled = true
        this.attempt.abort()
      }
      const left = this.attempt && !this.stalled && !this.writing ? this.timeoutMs - quiet : this.timeoutMs
      this.timer = this.scheduler.schedule(check, Math.max(1, left))
    }
    this.timer = this.scheduler.schedule(check, this.timeoutMs)
  }

  /** A chunk arrived and the target is writing it: the clock stands still until {@link heard}. */
  busy(): void {
    this.writing = true
    this.lastByteAt = this.scheduler.now()
  }

  /** A byte arrived, or the target finished writing: silence is measured from now. */
  heard(): void {
    this.writing = false
    this.lastByteAt = this.scheduler.now()
  }

  /** The request is over: nothing to abort until the next one. */
  release(): void {
    this.attempt = undefined
    this.writing = false
  }

  /** The download is over: the timer goes. */
  stop(): void {
    this.attempt = undefined
    this.timer?.unsubscribe()
    this.timer = undefined
  }
}
