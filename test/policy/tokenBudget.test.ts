import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { isInvalidRequestError, type InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { Budget, type BudgetOptions } from '../../src/policy/budget.js'
import { AbortSwitch, type AbortSignalLike } from '../../src/transport/abort.js'
import type { Pass, RequestSpec } from '../../src/transport/types.js'
import { settle, VirtualClock } from '../helpers/clock.js'

// maxTokensPerMinute: response creations are charged their estimate and wait
// while the last minute's tokens leave no room; reported usage replaces it.

const RESPONSES = '/vendors/vendor-a/v1/responses'
const POLL: RequestSpec = { method: 'GET', path: `${RESPONSES}/resp_1` }
const TASK: RequestSpec = { method: 'POST', path: '/vendors/vendor-b/v1/t2v-spark/generation', body: JSON.stringify({ prompt: 'x'.repeat(40_000) }) }

/** A creation estimated at exactly `tokens` (no input, `max_output_tokens: tokens`), sent with Idempotency-Key `key`. */
function creation(tokens: number, key: string, extra: Record<string, unknown> = {}): RequestSpec {
  return { method: 'POST', path: RESPONSES, body: JSON.stringify({ model: 'm', input: '', max_output_tokens: tokens, ...extra }), headers: { 'idempotency-key': key } }
}

const rateLimited = () => new HttpError({ method: 'POST', path: RESPONSES, status: 429, body: '', retryAfterMs: 0 })

function setup(limit: number, options: Partial<BudgetOptions> = {}) {
  const clock = new VirtualClock()
  const budget = new Budget({ maxConcurrency: Number.POSITIVE_INFINITY, adaptive: false, maxPauseMs: 60_000, scheduler: clock, maxTokensPerMinute: limit, ...options })
  const admitted: string[] = []
  const at = new Map<string, number>()
  const passes = new Map<string, Pass>()
  /** Asks to send `spec` as `name`; records when it is admitted. */
  const enter = (name: string, spec: RequestSpec, signal: AbortSignalLike = new AbortSwitch()) => {
    const got = budget.enter(spec, signal)
    const take = (pass: Pass) => {
      admitted.push(name)
      at.set(name, clock.now())
      passes.set(name, pass)
    }
    const waiting = got instanceof Promise ? got.then(take) : (take(got), Promise.resolve())
    waiting.catch(() => undefined)
    return waiting
  }
  /** Ends `name`'s try as the transport would: answered with `status` (none: no reply), then done with `error`. */
  const end = (name: string, status: number | undefined, error?: unknown) => {
    const pass = passes.get(name)
    if (!pass) throw new Error(`${name} was not admitted`)
    if (status !== undefined) pass.answered(status)
    pass.done(error)
  }
  return { clock, budget, admitted, at, passes, enter, end }
}

describe('Budget: maxTokensPerMinute', () => {
  it('charges each response creation its estimate; one that does not fit waits until the charges age out of the minute, with one timer, and nothing is left running after', async () => {
    const { clock, admitted, at, enter, end } = setup(1_000)
    void enter('a', creation(600, 'a'))
    void enter('task', TASK) // other requests cost no tokens
    void enter('b', creation(600, 'b'))
    void enter('poll', POLL) // first come, first served: behind b
    await settle()
    expect(admitted).toEqual(['a', 'task'])
    expect(clock.pendingDelays).toEqual([60_000])
    end('a', 200)
    await clock.run(59_999)
    expect(admitted).toEqual(['a', 'task'])
    await clock.run(1)
    expect(admitted).toEqual(['a', 'task', 'b', 'poll'])
    expect(at.get('b')).toBe(60_000)
    expect(clock.pending).toBe(0)
  })

  it('replaces the estimate with the reported usage: less lets a waiter go at once; more holds the next one longer, and the timer moves', async () => {
    const { clock, budget, admitted, at, enter, end } = setup(1_000)
    void enter('a', creation(800, 'a'))
    void enter('b', creation(500, 'b'))
    await clock.run(10_000)
    expect(admitted).toEqual(['a'])
    end('a', 200)
    budget.spent(100, 'a')
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    expect(at.get('b')).toBe(10_000)
    void enter('c', creation(500, 'c'))
    await settle()
    // 100 (a, reported at 10 s) + 500 (b): c fits once a's 100 age out, at 70 s.
    expect(clock.pendingDelays).toEqual([60_000])
    await clock.run(10_000)
    end('b', 200)
    budget.spent(900, 'b')
    await settle()
    // 900 (b, reported at 20 s): c fits only once those age out, at 80 s.
    expect(clock.pendingDelays).toEqual([60_000])
    await clock.run(59_999)
    expect(admitted).toEqual(['a', 'b'])
    await clock.run(1)
    expect(at.get('c')).toBe(80_000)
    expect(clock.pending).toBe(0)
  })

  it('refunds a try answered with an error status, or that never reached the gateway: the gateway did no work', async () => {
    const { clock, admitted, enter, end } = setup(1_000)
    void enter('a', creation(700, 'a'))
    void enter('b', creation(700, 'b'))
    void enter('c', creation(700, 'c'))
    await settle()
    expect(admitted).toEqual(['a'])
    end('a', 429, rateLimited())
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    end('b', undefined, new ConnectionError('POST', '/vendors/vendor-a/v1/responses', 'refused', false))
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
    expect(clock.now()).toBe(0)
  })

  it('keeps the estimate of a try cut after it was sent (a timeout, an unsubscribe before the reply): it may have been generated', async () => {
    const { clock, admitted, at, enter, end } = setup(1_000)
    void enter('a', creation(700, 'a'))
    void enter('b', creation(700, 'b'))
    await settle()
    end('a', undefined, new TimeoutError('POST', '/vendors/vendor-a/v1/responses', 30_000, 'silence'))
    await clock.run(59_999)
    expect(admitted).toEqual(['a'])
    await clock.run(1)
    expect(at.get('b')).toBe(60_000)
  })

  it('keeps the estimate of a try that fails after a 2xx reply (a stream cut or left mid-body): the gateway worked on it', async () => {
    const { clock, admitted, at, enter, end } = setup(1_000)
    void enter('a', creation(700, 'a'))
    void enter('b', creation(700, 'b'))
    await settle()
    end('a', 200, 'aborted')
    await clock.run(59_999)
    expect(admitted).toEqual(['a'])
    await clock.run(1)
    expect(at.get('b')).toBe(60_000)
  })

  it('does not charge a call twice: a try sent again with the same Idempotency-Key after a refund is charged once, after a 2xx failure not again', async () => {
    const { admitted, enter, end } = setup(1_000)
    void enter('a1', creation(700, 'a'))
    end('a1', 429, rateLimited())
    void enter('a2', creation(700, 'a'))
    void enter('x', creation(300, 'x'))
    await settle()
    // The call holds 700 once: 300 more fit.
    expect(admitted).toEqual(['a1', 'a2', 'x'])

    const s = setup(1_000)
    void s.enter('k1', creation(700, 'k'))
    s.end('k1', 200, new Error('the connection closed in the middle of the reply'))
    void s.enter('k2', creation(700, 'k')) // its 700 still stand: nothing more is charged
    await settle()
    expect(s.admitted).toEqual(['k1', 'k2'])
    s.end('k2', 200)
    s.budget.spent(300, 'k')
    void s.enter('y', creation(700, 'y'))
    await settle()
    expect(s.admitted).toEqual(['k1', 'k2', 'y'])
  })

  it('settles each report against its own creation by Idempotency-Key, whatever order concurrent responses end in', async () => {
    const { budget, admitted, enter } = setup(1_000)
    void enter('a', creation(500, 'a'))
    void enter('b', creation(300, 'b'))
    void enter('c', creation(650, 'c'))
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    budget.spent(50, 'a') // a ends first: 50 + b's 300 leave room for 650
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
  })

  it('without a key, settles a report against the smallest estimate still awaiting its usage: a wrong match frees less, never more', async () => {
    const { budget, admitted, enter } = setup(1_000)
    void enter('a', creation(500, 'a'))
    void enter('b', creation(300, 'b'))
    void enter('c', creation(600, 'c'))
    await settle()
    budget.spent(50) // taken for b's 300: 500 + 50 leave no room for 600 (taken for a's, 350 would)
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    budget.spent(50) // now a's: 50 + 50
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
  })

  it('keeps a background creation charged after its reply until its usage arrives through polling; a response that reports none keeps its estimate', async () => {
    const { clock, budget, admitted, at, enter, end } = setup(1_000)
    void enter('a', creation(800, 'a', { background: true }))
    end('a', 200) // queued
    void enter('poll', POLL)
    void enter('b', creation(300, 'b'))
    await clock.run(30_000)
    expect(admitted).toEqual(['a', 'poll'])
    budget.spent(100, 'a')
    await settle()
    expect(at.get('b')).toBe(30_000)
    end('b', 200)
    budget.spent(undefined, 'b') // b's 300 stand
    void enter('c', creation(700, 'c'))
    await settle()
    expect(admitted).toEqual(['a', 'poll', 'b'])
    await clock.run(60_000)
    expect(at.get('c')).toBe(90_000)
  })

  it('refuses, before it queues, a creation that alone needs more than the minute allows, naming the figures', async () => {
    const { clock, budget, admitted } = setup(1_000)
    const refused = async (spec: RequestSpec) => {
      const got = budget.enter(spec, new AbortSwitch())
      expect(got).toBeInstanceOf(Promise)
      const error = await (got as Promise<Pass>).then(() => undefined, (e: unknown) => e)
      expect(isInvalidRequestError(error)).toBe(true)
      return error as InvalidRequestError
    }
    const tooLong = await refused(creation(600, 'a', { input: 'x'.repeat(2_000) }))
    expect(tooLong.message).toBe(
      'Invalid response request: max_output_tokens: needs an estimated 1100 tokens (500 of input and 600 of max_output_tokens; input counted as characters / 4), ' +
        'more than maxTokensPerMinute allows in a minute (1000): shorten it or raise maxTokensPerMinute. Nothing was sent.',
    )
    const inputAlone = await refused({ method: 'POST', path: RESPONSES, body: JSON.stringify({ model: 'm', input: 'x'.repeat(4_004) }) })
    expect(inputAlone.issues).toEqual([{ path: 'input', message: expect.stringContaining('needs an estimated 1001 tokens (1001 of input;') }])
    expect(admitted).toEqual([])
    expect(clock.pending).toBe(0)
  })

  it('lets a guessed output (no max_output_tokens) yield to the limit: such a creation is charged at most the whole minute, never refused for the guess', async () => {
    const { clock, admitted, at, enter, end } = setup(500, { outputTokensGuess: 1_000 })
    const body = (key: string): RequestSpec => ({ method: 'POST', path: RESPONSES, body: JSON.stringify({ model: 'm', input: 'Say hi' }), headers: { 'idempotency-key': key } })
    void enter('a', body('a'))
    void enter('b', body('b'))
    await settle()
    expect(admitted).toEqual(['a'])
    end('a', 200)
    await clock.run(60_000)
    expect(at.get('b')).toBe(60_000)
  })

  it('guesses outputTokensGuess output tokens for a creation without max_output_tokens', async () => {
    const { admitted, enter } = setup(1_000, { outputTokensGuess: 600 })
    const body = (key: string): RequestSpec => ({ method: 'POST', path: RESPONSES, body: JSON.stringify({ model: 'm', input: 'x'.repeat(400) }), headers: { 'idempotency-key': key } })
    void enter('a', body('a')) // 100 + 600
    void enter('b', creation(300, 'b'))
    void enter('c', creation(1, 'c'))
    await settle()
    expect(admitted).toEqual(['a', 'b'])
  })

  it('charges only POSTs to its responsesPath', async () => {
    const { admitted, enter } = setup(1_000, { responsesPath: '/v1/responses' })
    void enter('a', { ...creation(900, 'a'), path: '/v1/responses' })
    void enter('b', creation(900, 'b')) // another path: free
    void enter('c', { ...creation(900, 'c'), path: '/v1/responses' })
    await settle()
    expect(admitted).toEqual(['a', 'b'])
  })

  it('lets a creation whose subscriber left while it waited out of the queue: never admitted, those it held up go, and no timer is left when nobody waits', async () => {
    const { clock, admitted, enter } = setup(1_000)
    void enter('a', creation(900, 'a'))
    const signal = new AbortSwitch()
    const b = enter('b', creation(500, 'b'), signal)
    void enter('poll', POLL)
    await settle()
    expect(clock.pendingDelays).toEqual([60_000])
    signal.abort()
    await expect(b).rejects.toThrow('aborted while waiting for the budget')
    expect(admitted).toEqual(['a', 'poll'])
    expect(clock.pending).toBe(0)
    const s = setup(1_000)
    void s.enter('a', creation(900, 'a'))
    const alone = new AbortSwitch()
    void s.enter('b', creation(500, 'b'), alone)
    await settle()
    alone.abort()
    await settle()
    expect(s.clock.pending).toBe(0)
    await s.clock.run(120_000)
    expect(s.admitted).toEqual(['a'])
  })

  it('keeps first-come-first-served order with maxConcurrency and maxRequestsPerSecond', async () => {
    const { clock, admitted, at, enter, end } = setup(1_000, { maxConcurrency: 1, maxRequestsPerSecond: 10 })
    void enter('a', creation(600, 'a'))
    void enter('b', creation(600, 'b'))
    void enter('poll', POLL)
    await settle()
    end('a', 200)
    await clock.run(59_999)
    expect(admitted).toEqual(['a'])
    await clock.run(1)
    expect(admitted).toEqual(['a', 'b'])
    end('b', 200)
    await clock.run(99)
    expect(admitted).toEqual(['a', 'b'])
    await clock.run(1) // 1000 / 10 ms after b
    expect(admitted).toEqual(['a', 'b', 'poll'])
    expect(at.get('poll')).toBe(60_100)
    expect(clock.pending).toBe(0)
  })
})
