import { describe, expect, it } from 'vitest'
import { responses$, retrieveResponse$ } from '../src/responses$.js'
import { usageOf, type UsageEvent } from '../src/usage.js'
import { fakeClient, onClock } from './helpers/client.js'
import { observe } from './helpers/collect.js'
import { json, sse } from './helpers/fakeTransport.js'
import { frame, lifecycle, OPENAI_USAGE, response, SPEC_USAGE } from './helpers/fixtures.js'

describe('usageOf and onUsage', () => {
  it('sum the usage of every response the client created and saw finish, in either usage shape', async () => {
    const seen: UsageEvent[] = []
    let n = 0
    const { client, clock } = fakeClient(
      (req) => {
        n++
        if ((req.json as { stream?: boolean }).stream) return sse(frame(lifecycle('response.created', 0, { id: 'resp_s' })) + frame(lifecycle('response.completed', 1, { id: 'resp_s', usage: OPENAI_USAGE })))
        return json(response({ id: `resp_${n}`, usage: SPEC_USAGE }))
      },
      { hooks: { onUsage: (e) => seen.push(e) } },
    )
    expect(usageOf(client)).toEqual({ responses: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, cachedTokens: 0, reasoningTokens: 0 })
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    await onClock(clock, observe(responses$(client, { model: 'm', stream: true }))).done
    expect(usageOf(client)).toEqual({ responses: 2, inputTokens: 22, outputTokens: 14, totalTokens: 36, cachedTokens: 3, reasoningTokens: 2 })
    expect(seen).toEqual([
      { responseId: 'resp_1', model: 'gpt-test', inputTokens: 11, outputTokens: 7, totalTokens: 18, cachedTokens: 0, reasoningTokens: 0 },
      { responseId: 'resp_s', model: 'gpt-test', inputTokens: 11, outputTokens: 7, totalTokens: 18, cachedTokens: 3, reasoningTokens: 2 },
    ])
  })

  it('take the total as input plus output when the usage gives none', async () => {
    const seen: UsageEvent[] = []
    const { client, clock } = fakeClient(() => json(response({ id: 'resp_n', usage: { input_tokens: 11, output_tokens: 7 } })), { hooks: { onUsage: (e) => seen.push(e) } })
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(seen.map((e) => e.totalTokens)).toEqual([18])
    expect(usageOf(client)).toMatchObject({ responses: 1, inputTokens: 11, outputTokens: 7, totalTokens: 18 })
  })

  it('keep a total of 0 the usage states', async () => {
    const { client, clock } = fakeClient(() => json(response({ usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } })))
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(usageOf(client)).toMatchObject({ responses: 1, totalTokens: 0 })
  })

  it('count a streamed response cut short (response.incomplete) too', async () => {
    const { client, clock } = fakeClient(() => sse(frame(lifecycle('response.created', 0, { id: 'resp_i' })) + frame(lifecycle('response.incomplete', 1, { id: 'resp_i', usage: OPENAI_USAGE }))))
    await onClock(clock, observe(responses$(client, { model: 'm', stream: true }))).done
    expect(usageOf(client)).toMatchObject({ responses: 1, totalTokens: 18 })
  })

  it('count a background response once, when it finishes', async () => {
    let polls = 0
    const { client, clock } = fakeClient((req) => json(response({ id: 'resp_bg', status: req.method === 'POST' || ++polls < 2 ? 'in_progress' : 'completed', usage: SPEC_USAGE })), { responsePoll: { initialDelayMs: 10, jitter: 0 } })
    await onClock(clock, observe(responses$(client, { model: 'm', background: true }))).done
    expect(usageOf(client)).toMatchObject({ responses: 1, totalTokens: 18 })
  })

  it('count a failed response too, single or streamed, since what it used was spent', async () => {
    const failed = { status: 'failed', error: { code: 'server_error', message: 'boom' }, usage: SPEC_USAGE }
    const { client, clock } = fakeClient((req) =>
      (req.json as { stream?: boolean }).stream ? sse(frame(lifecycle('response.failed', 0, { id: 'resp_s', ...failed }))) : json(response({ id: 'resp_1', ...failed })),
    )
    const single = await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    const streamed = await onClock(clock, observe(responses$(client, { model: 'm', stream: true }))).done
    expect([single.error, streamed.error].map((e) => (e as Error | undefined)?.name)).toEqual(['ResponseFailedError', 'ResponseFailedError'])
    expect(usageOf(client)).toMatchObject({ responses: 2, totalTokens: 36 })
  })

  it('do not count responses read back (created elsewhere), nor those without usage', async () => {
    const { client, clock } = fakeClient((req) => json(response(req.method === 'GET' ? { usage: SPEC_USAGE } : { usage: null })))
    await onClock(clock, observe(retrieveResponse$(client, 'resp_1'))).done
    await onClock(clock, observe(responses$(client, { model: 'm' }))).done
    expect(usageOf(client).responses).toBe(0)
  })

  it('keep each client’s totals apart', async () => {
    const one = fakeClient(() => json(response({ usage: SPEC_USAGE })))
    const two = fakeClient(() => json(response({ usage: SPEC_USAGE })))
    await onClock(one.clock, observe(responses$(one.client, { model: 'm' }))).done
    expect(usageOf(one.client).responses).toBe(1)
    expect(usageOf(two.client).responses).toBe(0)
  })
})
