import type { SchedulerLike } from 'rxjs'
import { isHttpError } from '../errors/HttpError.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import type { AbortSignalLike } from '../transport/abort.js'
import type { Gate, Pass, RequestSpec } from '../transport/types.js'
import { Alarm } from './alarm.js'
import { DEFAULTS } from './defaults.js'
import { MAX_TIMER_MS } from './delays.js'
import { TokenBudget, type TokenPrice } from './tokenBudget.js'

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
  /** Most tokens per minute, estimated before sending and corrected by reported usage (see `ClientOptions.maxTokensPerMinute`). Default: no limit. */
  readonly maxTokensPerMinute?: number
  /** Path of response creation, the requests `maxTokensPerMinute` charges. @defaultValue `'/vendors/vendor-a/v1/responses'` ({@link DEFAULTS | DEFAULTS.responsesPath}) */
  readonly responsesPath?: string
  /** Output tokens guessed for a creation without `max_output_tokens`. @defaultValue `1_000` ({@link DEFAULTS | DEFAULTS.outputTokensGuess}) */
  readonly outputTokensGuess?: number
  readonly scheduler: SchedulerLike
}

interface Waiter {
  readonly price: TokenPrice | undefined
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
 * at all. With `maxTokensPerMinute`, a response creation also waits while
 * the last minute's tokens leave no room for its estimate (see
 * {@link TokenBudget}); `spent` tells it what a response used. One timer at
 * most, while a pause, a spacing or a full minute lasts and someone waits.
 */
export class Budget implements Gate {
  private inFlight = 0
  private allowance: number
  private pausedUntil = 0
  private nextSendAt = 0 // the earliest time the next request may go, under maxRequestsPerSecond
  private limited = 0 // 429s in a row, for the backoff when no Retry-After is given
  private readonly queue: Waiter[] = []
  private readonly alarm: Alarm
  private readonly tokens: TokenBudget | undefined

  constructor(private readonly options: BudgetOptions) {
    this.allowance = options.maxConcurrency
    this.alarm = new Alarm(options.scheduler, () => this.pump())
    const { maxTokensPerMinute: limit, responsesPath = DEFAULTS.responsesPath, outputTokensGuess = DEFAULTS.outputTokensGuess } = options
    this.tokens = limit === undefined ? undefined : new TokenBudget(limit, responsesPath, outputTokensGuess)
  }

  enter(spec: RequestSpec, signal: AbortSignalLike): Pass | Promise<Pass> {
    const price = this.tokens?.price(spec)
    // Refused before it queues: no wait would ever make room for it.
    if (price instanceof InvalidRequestError) return Promise.reject(price)
    if (this.queue.length === 0 && this.room(price)) return this.admit(price)
    return new Promise<Pass>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter)
        if (i !== -1) this.queue.splice(i, 1)
        reject(new Error('aborted while waiting for the budget'))
        // The one who left may have held up those behind it, or been the last to wait.
        this.pump()
      }
      const waiter: Waiter = { price, resolve, leave: () => signal.removeEventListener('abort', onAbort) }
      signal.addEventListener('abort', onAbort, { once: true })
      this.queue.push(waiter)
      this.pump()
    })
  }

  /**
   * A response ended having used `tokens` (undefined: no usage reported);
   * `key` is its creation's `Idempotency-Key` when known. Replaces its
   * estimate under `maxTokensPerMinute`, which may let a waiter go.
   */
  spent(tokens: number | undefined, key?: string): void {
    if (!this.tokens) return
    this.tokens.spent(tokens, key, this.options.scheduler.now())
    this.pump()
  }

  private room(price: TokenPrice | undefined): boolean {
    const now = this.options.scheduler.now()
    return this.inFlight < Math.floor(this.allowance) && now >= this.readyAt(price, now)
  }

  /** When the pause, the spacing and the minute's tokens let a request of `price` go (the room in flight aside). */
  private readyAt(price: TokenPrice | undefined, now: number): number {
    const tokensAt = price && this.tokens ? this.tokens.readyAt(price, now) : now
    return Math.max(this.pausedUntil, this.nextSendAt, tokensAt)
  }

  private admit(price: TokenPrice | undefined): Pass {
    this.inFlight++
    const now = this.options.scheduler.now()
    const rate = this.options.maxRequestsPerSecond
    // Spaced from the later of now and the last slot: a quiet spell saves no burst for later.
    if (rate !== undefined) this.nextSendAt = Math.max(this.nextSendAt, now) + 1000 / rate
    const charge = price && this.tokens?.take(price, now)
    let done = false
    return {
      answered: (status) => charge?.answered(status),
      done: (error) => {
        if (done) return
        done = true
        this.inFlight--
        charge?.done(error)
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

  /**
   * Admits waiters in order while there is room, then sets the alarm for the
   * time the first one waits for (a pause, a spacing, tokens ageing out; a
   * refund or a report may bring it nearer), or clears it when nobody waits
   * or only room in flight is missing (an ending pass pumps then). One read
   * of the clock decides both: read twice, a millisecond passing between
   * "not yet" and the alarm would leave a time already past, and no alarm.
   */
  private pump(): void {
    for (;;) {
      const waiter = this.queue[0]
      if (!waiter) return this.alarm.set(undefined)
      const now = this.options.scheduler.now()
      const at = this.readyAt(waiter.price, now)
      if (now < at) return this.alarm.set(at)
      if (this.inFlight >= Math.floor(this.allowance)) return this.alarm.set(undefined)
      this.queue.shift()
      waiter.leave()
      waiter.resolve(this.admit(waiter.price))
    }
  }

}
