import type { SchedulerLike, Subscription } from 'rxjs'
import type { AbortSwitch } from '../transport/abort.js'

/**
 * The silence timer of one download: it aborts the request in flight once
 * no byte has come for `timeoutMs`. One timer serves every request of the
 * download; it looks at the time of the last byte rather than being reset
 * by each, which would cost a timer per chunk.
 *
 * @example
 * ```ts
 * const silence = new SilenceWatch(asyncScheduler, 60_000)
 * silence.watch(abort)  // a request begins
 * silence.heard()       // each chunk
 * silence.release()     // the request is over
 * silence.stop()        // the download is over
 * ```
 */
export class SilenceWatch {
  /** The request in flight was aborted for silence. */
  stalled = false
  private lastByteAt = 0
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
    this.lastByteAt = this.scheduler.now()
    if (this.timer) return
    const check = () => {
      this.timer = undefined
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

  /** A byte arrived. */
  heard(): void {
    this.lastByteAt = this.scheduler.now()
  }

  /** The request is over: nothing to abort until the next one. */
  release(): void {
    this.attempt = undefined
  }

  /** The download is over: the timer goes. */
  stop(): void {
    this.attempt = undefined
    this.timer?.unsubscribe()
    this.timer = undefined
  }
}
