import { lastValueFrom } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient, type ClientOptions } from '../../src/client.js'
import { isHttpError } from '../../src/errors/HttpError.js'
import { isTaskCreationUnknownError } from '../../src/errors/TaskCreationUnknownError.js'
import { responses$, retrieveResponse$ } from '../../src/responses$.js'
import { textToVideo$ } from '../../src/tasks$.js'
import { startSimulator, type Simulator, type SimFaults } from '../../src/sim/index.js'

// A creation (paid work) that fails with a 5xx may have been made anyway:
// "try again later" would pay twice. Its error says how to send it again
// safely, and that depends on the key it went with.

const running: Simulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

async function setUp(faults: SimFaults, options: Partial<ClientOptions> = {}) {
  const sim = await startSimulator({ faults, streamDelayMs: 1 })
  running.push(sim)
  const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { count: 2, baseDelayMs: 0 }, ...options })
  return { sim, client }
}

const failure = (call$: Parameters<typeof lastValueFrom>[0]) => lastValueFrom(call$).then(
  () => expect.unreachable('the call succeeded'),
  (error: unknown) => error as Error,
)

const UNSAFE_HINT = /idempotentCreate: true on the client \(rxgate then sends such a creation again itself, with the same key\) or an explicit idempotencyKey makes sending again safe/

describe('the error of a creation that may have been made', () => {
  it.each([
    ['plain', {}],
    ['streamed', { stream: true }],
    ['background', { background: true }],
  ])('a %s response creation answered 500: says that idempotentCreate or an explicit idempotencyKey makes sending again safe, with the key it went with', async (_, extra) => {
    const { sim, client } = await setUp({ serverErrors: { every: 1, status: 500 } })
    const error = await failure(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', ...extra }))
    expect(isHttpError(error)).toBe(true)
    expect(error).toMatchObject({ status: 500, kind: 'server', method: 'POST' })
    const key = sim.requests[0]!.idempotencyKey
    expect(sim.requests).toHaveLength(1)
    expect(error.message).toMatch(/^POST \/vendors\/vendor-a\/v1\/responses answered 500: .*\. The gateway failed, but the response may have been created anyway\. Sending it again may create a second response\./)
    expect(error.message).toMatch(UNSAFE_HINT)
    expect(error.message).toContain(`this one went with '${key}', so create again with { idempotencyKey: '${key}' } to get the same response.`)
    expect(error.message).not.toMatch(/try again later/)
  })

  it('a response created with an explicit idempotencyKey: says it was sent with that key, and that sending again with it is safe', async () => {
    const { sim, client } = await setUp({ serverErrors: { every: 1, status: 502 } })
    const error = await failure(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }, { idempotencyKey: 'order-42' }))
    expect(sim.requests.map((r) => r.idempotencyKey)).toEqual(['order-42'])
    expect(error.message).toContain(
      "It was sent with Idempotency-Key 'order-42': create again with { idempotencyKey: 'order-42' } to get the same response; with the same key, sending again is safe on a gateway that honours Idempotency-Key.",
    )
    expect(error.message).not.toContain('idempotentCreate')
  })

  it('with idempotentCreate, after every retry with the key: says that sending again with it is safe', async () => {
    const { sim, client } = await setUp({ serverErrors: { every: 1, status: 500 } }, { idempotentCreate: true })
    const error = await failure(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    const keys = sim.requests.map((r) => r.idempotencyKey)
    expect(keys.length).toBeGreaterThan(1)
    expect(new Set(keys).size).toBe(1)
    expect(error.message).toContain(`It was sent with Idempotency-Key '${keys[0]}', which the gateway honours (idempotentCreate): create again with { idempotencyKey: '${keys[0]}' } to get the same response; sending again with the same key is safe.`)
    expect(error.message).not.toMatch(UNSAFE_HINT)
  })

  it('a task creation answered 500: TaskCreationUnknownError says how to send it again safely, without the 500’s “try again later”', async () => {
    const { sim, client } = await setUp({ serverErrors: { every: 1, status: 500 } })
    const error = await failure(textToVideo$(client, { prompt: 'A red kite over a grey sea' }))
    expect(isTaskCreationUnknownError(error)).toBe(true)
    const key = sim.requests[0]!.idempotencyKey
    expect(error.message).toMatch(/^Creating a task at vendor-b\/t2v-spark may have succeeded \(POST \/vendors\/vendor-b\/v1\/t2v-spark\/generation answered 500: .*\): the task may exist and be paid for\. Sending it again may create a second task\./)
    expect(error.message).toMatch(UNSAFE_HINT)
    expect(error.message).toContain(`create again with { idempotencyKey: '${key}' } to get the same task`)
    expect(error.message).not.toMatch(/try again later/)
  })

  it('a task created with an explicit idempotencyKey: says it was sent with that key, and that sending again with it is safe', async () => {
    const { client } = await setUp({ serverErrors: { every: 1, status: 500 } })
    const error = await failure(textToVideo$(client, { prompt: 'A red kite over a grey sea' }, { idempotencyKey: 'kite-1' }))
    expect(error.message).toContain("It was sent with Idempotency-Key 'kite-1': create again with { idempotencyKey: 'kite-1' } to get the same task; with the same key, sending again is safe")
    expect(error.message).not.toContain('idempotentCreate')
  })
})

describe('errors that need no such advice', () => {
  it('a creation that certainly made nothing (503s until retries run out) keeps the plain advice', async () => {
    const { sim, client } = await setUp({ serverErrors: { every: 1, status: 503 } })
    const error = await failure(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
    expect(sim.requests).toHaveLength(3)
    expect(error.message).toMatch(/^POST \/vendors\/vendor-a\/v1\/responses answered 503: .*\. The gateway failed; try again later\./)
    expect(error.message).not.toContain('Idempotency-Key')
  })

  it('a read (GET) answered 500 keeps the plain advice', async () => {
    const { client } = await setUp({ serverErrors: { every: 1, status: 500 } })
    const error = await failure(retrieveResponse$(client, 'resp_1'))
    expect(error).toMatchObject({ status: 500, method: 'GET' })
    expect(error.message).toMatch(/The gateway failed; try again later\.$/)
    expect(error.message).not.toContain('dempoten')
  })
})
