import { describe, expect, it } from 'vitest'
import type { ClientHooks } from '../../src/hooks.js'
import { responses$ } from '../../src/responses$.js'
import { usageOf } from '../../src/usage.js'
import { fakeClient, onClock } from '../helpers/client.js'
import { observe } from '../helpers/collect.js'
import { json } from '../helpers/fakeTransport.js'
import { response } from '../helpers/fixtures.js'
import { captureReports, turn } from '../helpers/reported.js'

const { reported, rejections } = captureReports()

/** One single response through a client with `hooks`: what the subscriber saw. */
async function callWith(hooks: ClientHooks) {
  const { client, clock, gw } = fakeClient(() => json(response({ usage: { input_tokens: 3, output_tokens: 4 } })), { hooks })
  const outcome = await onClock(clock, observe(responses$(client, { model: 'm' }))).done
  await turn()
  await turn()
  return { outcome, sent: gw.requests.length, usage: usageOf(client) }
}

describe('hooks that fail', () => {
  it('an async hook that rejects: the call completes, and the rejection is reported like a throw, never left unhandled', async () => {
    const fail = (what: string) => async () => Promise.reject(new Error(`${what} failed`))
    const { outcome, sent, usage } = await callWith({ onRequest: fail('onRequest'), onResponse: fail('onResponse'), onUsage: fail('onUsage') })
    expect(outcome.completed).toBe(true)
    expect(outcome.values).toHaveLength(1)
    expect(sent).toBe(1)
    expect(usage.responses).toBe(1)
    expect(reported.map((e) => (e as Error).message).sort()).toEqual(['onRequest failed', 'onResponse failed', 'onUsage failed'])
    expect(rejections).toEqual([])
  })

  it("a hook that throws is reported where RxJS reports an observer's error: config.onUnhandledError, when the app set one", async () => {
    const { outcome } = await callWith({
      onResponse: () => {
        throw new Error('hook bug')
      },
    })
    expect(outcome.completed).toBe(true)
    expect(reported).toEqual([new Error('hook bug')])
  })

  it('an async hook that never settles holds nothing up: its promise is not awaited', async () => {
    const pending = () => new Promise<void>(() => undefined)
    const { outcome, usage } = await callWith({ onRequest: pending, onResponse: pending, onUsage: pending })
    expect(outcome.completed).toBe(true)
    expect(usage.responses).toBe(1)
    expect(reported).toEqual([])
  })
})
