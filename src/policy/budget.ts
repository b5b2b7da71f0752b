import { Subscription, type SchedulerLike } from 'rxjs'
import { isHttpError } from '../errors/HttpError.js'
import type { AbortSignalLike } from '../transport/abort.js'
import type { Gate, Pass, RequestSpec } from '../transport/types.js'
import { MAX_TIMER_MS } from './delays.js'

/** Options of a client's budget. */
export interface BudgetOptions {
  /** Most requests in flight at once (a stream counts until it ends); the others wait their turn, first come, first served. Default: no limit. */
  readonly maxConcurrency: number
  /**
   * After a 429 (a rate limit, not a quota), every request of the client
   * waits out its `Retry-After` (or a growing backoff), and the number in
   * flight is halved, then grows back by one per round of successes (one
   * success per request allowed in flight). Default true.
   */
  readonly adaptive: boolean
  /** Longest pause a `Retry-After` may impose on the whole client. */
  readonly maxPauseMs: number
  /** Most requests sent per second, evenly spaced (`1000 / n` ms apart, no burst above it). Default: no limit. */
  readonly maxRequestsPerSecond?: number
  readonly scheduler: SchedulerLike
}

interface Waiter {
  readonly resolve: (pass: Pass) => void
  readonly leave: () => void
}

/**
 * A client-wide budget for requests: a gate every exchange passes. Requests
 * beyond `maxConcurrency` (or beyond what a rate limit left) wait in one
 * queue in order of arrival, so thousands of task polls share it fairly;
 * a request unsubscribed while it waits leaves the queue and is never sent.
 * With `maxRequestsPerSecond`, requests also go at most that often, evenly
 * spaced, retries and polls included, so a gateway's rate limit is not met
 * at all. One timer at most, while a pause or a spacing lasts and someone
 * waits.
 */
export class Budget implements Gate {
  private inFlight = 0
  private allowance: number
  private pausedUntil = 0
  private nextSendAt = 0 // the earliest time the next request may go, under maxRequestsPerSecond
  private limited = 0 // 429s in a row, for the backoff when no Retry-After is given
  private readonly queue: Waiter[] = []
  private timer: Subscription | undefined

  constructor(private readonly options: BudgetOptions) {
    this.allowance = options.maxConcurrency
  }

  enter(_spec: RequestSpec, signal: AbortSignalLike): Pass | Promise<Pass> {
    if (this.queue.length === 0 && this.room()) return this.admit()
    return new Promise<Pass>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter)
        if (i !== -1) this.queue.splice(i, 1)
        reject(new Error('aborted while waiting for the budget'))
      }
      const waiter: Waiter = { resolve, leave: () => signal.removeEventListener('abort', onAbort) }
      signal.addEventListener('abort', onAbort, { once: true })
      this.queue.push(waiter)
      this.pump()
    })
  }

  private room(): boolean {
    const now = this.options.scheduler.now()
    return this.inFlight < Math.floor(this.allowance) && now >= this.pausedUntil && now >= this.nextSendAt
  }

  private admit(): Pass {
    this.inFlight++
    const rate = this.options.maxRequestsPerSecond
    // Spaced from the later of now and the last slot: a quiet spell saves no burst for later.
    if (rate !== undefined) this.nextSendAt = Math.max(this.nextSendAt, this.options.scheduler.now()) + 1000 / rate
    let done = false
    return {
      answered: () => {},
      done: (error) => {
        if (done) return
        done = true
        this.inFlight--
        this.learn(error)
        this.pump()
      },
    }
  }

  /**
   * A rate-limiting 429 pauses everyone and halves the room; successes grow
   * it back by one per round (1/allowance each, as TCP's congestion
   * avoidance does). Growing by one per success would double the room every
   * round and run into the limit again at once.
   */
  private learn(error: unknown): void {
    if (!this.options.adaptive) return
    if (isHttpError(error) && error.status === 429 && !error.permanent) {
      this.limited++
      const wait = error.retryAfterMs ?? Math.min(1_000 * 2 ** (this.limited - 1), 30_000)
      this.pausedUntil = Math.max(this.pausedUntil, this.options.scheduler.now() + Math.min(wait, this.options.maxPauseMs, MAX_TIMER_MS))
      this.allowance = Math.max(1, Math.floor(Math.min(this.allowance, this.inFlight + 1) / 2))
    } else if (error === undefined) {
      this.limited = 0
      if (this.allowance < this.options.maxConcurrency) this.allowance = Math.min(this.options.maxConcurrency, this.allowance + 1 / Math.floor(this.allowance))
    }
  }

  private pump(): void {
    while (this.queue.length > 0 && this.room()) {
      const waiter = this.queue.shift()!
      waiter.leave()
      waiter.resolve(this.admit())
    }
    const wait = Math.max(this.pausedUntil, this.nextSendAt) - this.options.scheduler.now()
    if (this.queue.length > 0 && wait > 0 && !this.timer) {
      this.timer = this.options.scheduler.schedule(() => {
        this.timer = undefined
        this.pump()
      }, wait)
    }
  }
}
