import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import type { Pass, RequestSpec } from '../transport/types.js'
import { neverArrived } from './retryable.js'
import { estimateTokens } from './tokenEstimate.js'

/** The window tokens are counted over: the last minute, sliding. */
export const TOKEN_WINDOW_MS = 60_000

/** One charge against the window: an estimate until the response's usage replaces it. */
interface Charge {
  at: number
  tokens: number
  readonly key: string | undefined
  /** `awaiting`: sent, usage unknown yet. `kept`: failed after the gateway took it, the estimate stands. `reported`: the gateway's figure. */
  state: 'awaiting' | 'kept' | 'reported'
}

/** A response creation's estimate and its call (its `Idempotency-Key`, shared by every try of the call). */
export interface TokenPrice {
  readonly tokens: number
  readonly key: string | undefined
}

/**
 * The tokens of the last minute, for `maxTokensPerMinute`: a sliding window
 * of charges, each a creation's estimate from its send until the gateway's
 * usage replaces it (charged when it is reported, so a gateway that counts a
 * response when it ends is not outrun either). A try answered with an error
 * status (a 429, a 500), or that never reached the gateway (a refused
 * connection), is refunded: the gateway did no work. Any other keeps its
 * estimate until the minute has passed: one cut after sending (a timeout,
 * an unsubscribe before the reply) may well have been generated and counted. A try sent again for the
 * same call (same `Idempotency-Key`) while its charge stands is not charged
 * twice. Pure bookkeeping: the time is passed in, the budget schedules.
 */
export class TokenBudget {
  private readonly charges: Charge[] = [] // in order of `at`

  constructor(
    private readonly limit: number,
    private readonly responsesPath: string,
    private readonly outputGuess: number,
  ) {}

  /**
   * The estimate of a response creation; undefined for any other request
   * (task creations and polls cost no tokens). A body that alone needs more
   * than the minute allows is an {@link InvalidRequestError}: it could never go.
   */
  price(spec: RequestSpec): TokenPrice | InvalidRequestError | undefined {
    if (spec.method !== 'POST' || spec.path !== this.responsesPath) return undefined
    const { input, output, outputGiven } = estimateTokens(spec.body, this.outputGuess)
    // A guessed output yields to the limit; the input and a stated max_output_tokens do not.
    const needed = input + (outputGiven ? output : 0)
    if (needed > this.limit) {
      const what = outputGiven ? `${input} of input and ${output} of max_output_tokens` : `${input} of input`
      const message = `needs an estimated ${needed} tokens (${what}; input counted as characters / 4), more than maxTokensPerMinute allows in a minute (${this.limit}): shorten it or raise maxTokensPerMinute`
      return new InvalidRequestError([{ path: outputGiven && input <= this.limit ? 'max_output_tokens' : 'input', message }], 'response request')
    }
    return { tokens: Math.min(input + output, this.limit), key: spec.headers?.['idempotency-key'] }
  }

  /** The earliest time, from `now`, at which `price` fits: now, or when enough of the window's charges have aged out. */
  readyAt(price: TokenPrice, now: number): number {
    this.age(now)
    const cost = this.cost(price, now)
    let used = this.charges.reduce((sum, c) => sum + c.tokens, 0)
    if (cost === 0 || used + cost <= this.limit) return now
    for (const charge of this.charges) {
      used -= charge.tokens
      if (used + cost <= this.limit) return charge.at + TOKEN_WINDOW_MS
    }
    return now
  }

  /** Charges an admitted creation; its pass refunds or keeps the charge as the try ends (see the class). */
  take(price: TokenPrice, now: number): Pass {
    const earlier = this.standing(price.key, now)
    const charge = earlier ?? this.add({ at: now, tokens: price.tokens, key: price.key, state: 'awaiting' })
    const before = charge.state
    charge.state = 'awaiting'
    let status: number | undefined
    return {
      answered: (code) => (status = code),
      done: (error) => {
        if (error === undefined || charge.state !== 'awaiting') return // a success awaits its usage
        // The gateway did the work unless it answered with an error status or never had the request:
        // a try cut after sending (a timeout, an unsubscribe) may well have been generated, and counted.
        const worked = status === undefined ? !neverArrived(error) : status >= 200 && status <= 299
        if (worked) charge.state = 'kept'
        else if (earlier) charge.state = before
        else this.remove(charge)
      },
    }
  }

  /**
   * A response ended having used `tokens` (undefined: it reported no usage,
   * so its estimate stands). It settles its call's charge when `key` is
   * known, else the smallest charge still awaiting: a wrong match then
   * frees less than the right one would, never more.
   */
  spent(tokens: number | undefined, key: string | undefined, now: number): void {
    this.age(now)
    let charge: Charge | undefined
    for (const c of this.charges) {
      if (key !== undefined ? c.key === key && c.state !== 'reported' : c.state === 'awaiting' && (!charge || c.tokens < charge.tokens)) charge = c
    }
    if (tokens === undefined) {
      if (charge) charge.state = 'reported'
      return
    }
    if (charge) this.remove(charge)
    this.add({ at: now, tokens, key, state: 'reported' })
  }

  /** What `price` would add now: nothing when its call's charge still stands (a try sent again). */
  private cost(price: TokenPrice, now: number): number {
    return this.standing(price.key, now) ? 0 : price.tokens
  }

  private standing(key: string | undefined, now: number): Charge | undefined {
    this.age(now)
    let found: Charge | undefined
    if (key !== undefined) for (const c of this.charges) if (c.key === key && c.state !== 'reported') found = c
    return found
  }

  /** Drops the charges that have left the window. */
  private age(now: number): void {
    const kept = this.charges.findIndex((c) => c.at + TOKEN_WINDOW_MS > now)
    this.charges.splice(0, kept === -1 ? this.charges.length : kept)
  }

  private add(charge: Charge): Charge {
    const later = this.charges.findIndex((c) => c.at > charge.at)
    this.charges.splice(later === -1 ? this.charges.length : later, 0, charge)
    return charge
  }

  private remove(charge: Charge): void {
    const i = this.charges.indexOf(charge)
    if (i !== -1) this.charges.splice(i, 1)
  }
}
