import { merge } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { Budget } from '../../src/policy/budget.js'
import { responses$ } from '../../src/responses$.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import type { Pass } from '../../src/transport/types.js'
import { recordUsage } from '../../src/usage.js'
import type { Response } from '../../src/validation/response.js'
import { fakeClient, onClock } from '../helpers/client.js'
import { settle, VirtualClock } from '../helpers/clock.js'
import { observe } from '../helpers/collect.js'
import { json } from '../helpers/fakeTransport.js'
import { KEY, response } from '../helpers/fixtures.js'
import { sendJson, startServer } from '../helpers/server.js'

// maxTokensPerMinute from the caller's side: the usage a response reports
// reaches the budget, and a client with the limit draws no token-rate 429.

const RESPONSES = '/vendors/vendor-a/v1/responses'
const MINUTE = 60_000

/**
 * A gateway on 127.0.0.1 that allows `limit` tokens a minute, by its own
 * count of the usage it reported, on the test's virtual clock: a creation
 * that would take the last minute past it is answered 429. It uses all of a
 * request's input (characters / 4) but only a fifth of its max_output_tokens.
 */
async function tokenGateway(clock: VirtualClock, limit: number) {
  const reported: { at: number; tokens: number }[] = []
  const seen = { created: 0, refused: 0 }
  const server = await startServer((req, res) => {
    const body = req.json as { input: string; max_output_tokens: number }
    const input = Math.ceil(body.input.length / 4)
    const output = Math.ceil(body.max_output_tokens / 5)
    const now = clock.now()
    const used = reported.filter((r) => r.at > now - MINUTE).reduce((sum, r) => sum + r.tokens, 0)
    if (used + input + output > limit) {
      seen.refused++
      return sendJson(res, 429, { error: { message: 'Rate limit reached for tokens per min', code: 'rate_limit_exceeded' } }, { 'retry-after': '20' })
    }
    reported.push({ at: now, tokens: input + output })
    sendJson(res, 200, response({ id: `resp_${++seen.created}`, usage: { input_tokens: input, output_tokens: output, total_tokens: input + output } }))
  })
  return { url: server.url, seen }
}

/**
 * Moves the virtual clock to its next timer only while no request is on the
 * wire, so that no timeout fires on a reply still travelling the loopback.
 */
async function drive(clock: VirtualClock, busy: () => boolean, finished: () => boolean): Promise<void> {
  const giveUp = Date.now() + 10_000
  while (!finished()) {
    if (Date.now() > giveUp) throw new Error('the calls did not finish')
    await settle()
    if (busy() || finished()) continue
    const next = clock.pendingDelays[0]
    if (next === undefined) throw new Error('nothing left to run, yet the calls are not finished')
    clock.advance(next)
  }
}

describe('maxTokensPerMinute', () => {
  it('against a gateway allowing 1000 tokens a minute, 12 calls at once draw no 429 and finish within a minute, the reported usage replacing each estimate; without it they draw 429s', async () => {
    const run = async (options: { maxTokensPerMinute?: number }) => {
      const clock = new VirtualClock()
      const gateway = await tokenGateway(clock, 1_000)
      let inFlight = 0
      const client = createClient({
        baseUrl: gateway.url,
        apiKey: KEY,
        scheduler: clock,
        hooks: { onRequest: () => void inFlight++, onResponse: () => void inFlight-- },
        ...options,
      })
      // Estimated 100 + 100 tokens each; the gateway reports 100 + 20.
      const calls = Array.from({ length: 12 }, () => responses$(client, { model: 'm', input: 'x'.repeat(400), max_output_tokens: 100 }))
      const all = observe(merge(...calls))
      await drive(clock, () => inFlight > 0, () => all.completed || all.error !== undefined)
      return { ...gateway.seen, error: all.error, finishedAt: clock.now() }
    }
    // Charged 200 each, five go at once; as each reports 120, two more fit; the rest go a minute later.
    expect(await run({ maxTokensPerMinute: 1_000 })).toEqual({ created: 12, refused: 0, error: undefined, finishedAt: MINUTE })
    expect((await run({})).refused).toBeGreaterThan(0)
  }, 20_000)

  it('refuses through responses$ a request that needs more than the minute, with InvalidRequestError, and sends nothing', async () => {
    const { client, clock, gw } = fakeClient(() => json(response()), { maxTokensPerMinute: 1_000 })
    const outcome = await onClock(clock, observe(responses$(client, { model: 'm', input: 'Say hi', max_output_tokens: 2_000 }))).done
    expect(isInvalidRequestError(outcome.error) && outcome.error.message).toMatch(/needs an estimated 2002 tokens .*maxTokensPerMinute allows in a minute \(1000\)/)
    expect(gw.requests).toHaveLength(0)
  })

  it('recordUsage tells the budget what a response used, matched by its Idempotency-Key; a response without usage leaves its estimate standing', async () => {
    const clock = new VirtualClock()
    const budget = new Budget({ maxConcurrency: Number.POSITIVE_INFINITY, adaptive: false, maxPauseMs: MINUTE, scheduler: clock, maxTokensPerMinute: 1_000 })
    const spec = (tokens: number, key: string) => ({ method: 'POST', path: RESPONSES, body: JSON.stringify({ model: 'm', max_output_tokens: tokens }), headers: { 'idempotency-key': key } }) as const
    const admitted: string[] = []
    const enter = (name: string, tokens: number) => {
      const got = budget.enter(spec(tokens, name), new AbortSwitch())
      const take = (pass: Pass) => (admitted.push(name), pass.answered(200), pass.done())
      return got instanceof Promise ? got.then(take) : Promise.resolve(take(got))
    }
    void enter('a', 600)
    void enter('b', 300)
    void enter('c', 500)
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    recordUsage({ budget }, response({ id: 'resp_b', usage: undefined }) as Response, 'b') // b's 300 stand
    await settle()
    expect(admitted).toEqual(['a', 'b'])
    recordUsage({ budget }, response({ id: 'resp_a', usage: { input_tokens: 100, output_tokens: 100 } }) as Response, 'a')
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
    // b is over: a new creation sent with its key is a new charge (200 + 300 + 500 leave no room for it).
    void enter('b', 300)
    await settle()
    expect(admitted).toEqual(['a', 'b', 'c'])
  })
})
