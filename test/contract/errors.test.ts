import { randomUUID } from 'node:crypto'
import { lastValueFrom, type Observable } from 'rxjs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  cancelResponse$,
  createClient,
  endpoints,
  isHttpError,
  isTaskCreationUnknownError,
  responses$,
  retrieveResponse$,
  task$,
  textToVideo$,
  type Client,
  type HttpError,
} from '../../src/index.js'
import { startSimulator, type Simulator } from '../../src/sim/index.js'
import { ERROR_SHAPES, type ErrorShape } from './errorShapes.js'
import { cannedServer, errorOf, raw, simClient, type CannedReply } from './harness.js'
import { RESPONSES_PATH, RESULT_PATHS, TEXT_TO_VIDEO_PATH } from './spec.js'

// 1. Every error body shape of GATEWAY-NOTES, served by a loopback server,
//    read by the client through three public calls into an HttpError.
// 2. The simulator's own error replies, read by the client.

let server: Awaited<ReturnType<typeof cannedServer>>
let reply: CannedReply = { status: 500, body: '' }
let sim: Simulator

beforeAll(async () => {
  server = await cannedServer(() => reply)
  sim = await startSimulator({ streamDelayMs: 0 })
})
afterAll(async () => {
  await Promise.all([server?.close(), sim?.close()])
})

const TASK_ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
const VIDEO_ONE = RESULT_PATHS.find((r) => r.key === 'videoOne')!

interface Call {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly run: (client: Client) => Observable<unknown>
}

const CALLS: readonly Call[] = [
  { name: 'responses$', method: 'POST', path: RESPONSES_PATH, run: (client) => responses$(client, { model: 'gpt-4o', input: 'Say hi' }) },
  { name: 'retrieveResponse$', method: 'GET', path: `${RESPONSES_PATH}/resp_1`, run: (client) => retrieveResponse$(client, 'resp_1') },
  { name: 'task$', method: 'GET', path: `${VIDEO_ONE.path}/${TASK_ID}`, run: (client) => task$(client, endpoints.videoOne, TASK_ID) },
]

/** Checks an HttpError against what a row says the client must read. */
function expectRead(error: unknown, shape: Pick<ErrorShape, 'status' | 'gatewayMessage' | 'code' | 'kind' | 'permanent' | 'retryAfterMs'>): asserts error is HttpError {
  expect(isHttpError(error), String(error)).toBe(true)
  const e = error as HttpError
  expect({ status: e.status, kind: e.kind, permanent: e.permanent, gatewayMessage: e.gatewayMessage }).toEqual({
    status: shape.status,
    kind: shape.kind,
    permanent: shape.permanent,
    gatewayMessage: shape.gatewayMessage,
  })
  if (shape.code === 'absent') expect(e.code).toBeUndefined()
  else if (shape.code === 'not null') expect(e.code).not.toBeNull()
  else expect(e.code).toBe(shape.code)
  if (shape.retryAfterMs !== undefined) expect(e.retryAfterMs).toBe(shape.retryAfterMs)
  // The status and the gateway's words reach the message a person reads.
  expect(e.message).toContain(String(shape.status))
  if (shape.gatewayMessage) expect(e.message).toContain(shape.gatewayMessage.replace(/[.\s]+$/, '').slice(0, 40))
}

describe('error bodies of GATEWAY-NOTES, from a loopback server', () => {
  describe.each(ERROR_SHAPES)('$status $title', (shape) => {
    it.each(CALLS)('read by $name ($method)', async ({ method, path, run }) => {
      reply = { status: shape.status, body: shape.body, ...(shape.headers ? { headers: shape.headers } : {}) }
      const client = createClient({ baseUrl: server.url, apiKey: 'contract-key', retry: false, adaptToRateLimits: false })
      const before = server.hits()
      const error = await errorOf(run(client))
      expectRead(error, shape)
      expect(error.method).toBe(method)
      expect(error.path).toBe(path)
      expect(server.hits() - before).toBe(1)
    })
  })
})

describe("the simulator's own error replies, read by the client", () => {
  afterEach(() => sim.setFaults({}))

  it('401 for a wrong key: auth, permanent, the key never echoed', async () => {
    const client = simClient(sim, { apiKey: 'not-the-sim-key' })
    for (const call of [responses$(client, { model: 'gpt-4o', input: 'Say hi' }), task$(client, endpoints.videoOne, TASK_ID)]) {
      const error = await errorOf(call)
      expect(isHttpError(error), String(error)).toBe(true)
      expect(error).toMatchObject({ status: 401, kind: 'auth', permanent: true, code: 'invalid_api_key' })
      expect((error as HttpError).gatewayMessage).toMatch(/key|token/i)
      expect((error as HttpError).message).not.toContain('not-the-sim-key')
    }
    // No token at all is a 401 too (SPEC: every endpoint requires the header).
    const bare = await fetch(`${sim.url}${RESPONSES_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"gpt-4o"}' })
    expect(bare.status).toBe(401)
  })

  it.each(RESULT_PATHS)('404 for an unknown task id at $path', async ({ key }) => {
    const id = randomUUID()
    const error = await errorOf(task$(simClient(sim), endpoints[key], id))
    expect(isHttpError(error), String(error)).toBe(true)
    expect(error).toMatchObject({ status: 404, kind: 'not_found', permanent: true, taskId: id })
    expect((error as HttpError).gatewayMessage).toBeTruthy()
  })

  it('404 for an unknown response id, on retrieve and on cancel', async () => {
    for (const call of [retrieveResponse$(simClient(sim), 'resp_unknown'), cancelResponse$(simClient(sim), 'resp_unknown')]) {
      const error = await errorOf(call)
      expect(error).toMatchObject({ status: 404, kind: 'not_found', permanent: true, code: 'not_found' })
      expect((error as HttpError).gatewayMessage).toContain('resp_unknown')
    }
  })

  it('405 for a wrong method (GET on a creation path)', async () => {
    // A client whose retrieval prefix sits one segment above a creation path: its GET lands on a POST-only route.
    const client = simClient(sim, { responsesPath: VIDEO_ONE.path.replace(/\/generation$/, '') })
    const error = await errorOf(retrieveResponse$(client, 'generation'))
    expect(error).toMatchObject({ status: 405, kind: 'rejected', permanent: true, code: 'method_not_allowed', method: 'GET', path: VIDEO_ONE.path })
    expect((error as HttpError).gatewayMessage).toContain('POST')
  })

  it('413 for a body over the size the simulator takes', async () => {
    const error = await errorOf(responses$(simClient(sim), { model: 'gpt-4o', input: 'x'.repeat(1_100_000) }))
    expect(error).toMatchObject({ status: 413, kind: 'rejected', permanent: true, code: 'request_too_large' })
  })

  it('409 for an Idempotency-Key reused with another body, on both creation endpoints', async () => {
    const client = simClient(sim)
    const key = `contract-${randomUUID()}`
    const first = await lastValueFrom(responses$(client, { model: 'gpt-4o', input: 'Say hi' }, { idempotencyKey: key }))
    expect(first.status).toBe('completed')
    const error = await errorOf(responses$(client, { model: 'gpt-4o', input: 'Say bye' }, { idempotencyKey: key }))
    expect(error).toMatchObject({ status: 409, kind: 'rejected', permanent: true, code: 'idempotency_key_reused' })

    const videoKey = `contract-${randomUUID()}`
    const created = await raw(sim, 'POST', TEXT_TO_VIDEO_PATH, { prompt: 'A fox' }, { 'idempotency-key': videoKey })
    expect(created.status).toBe(202)
    const videoError = await errorOf(textToVideo$(client, { prompt: 'A hare' }, { idempotencyKey: videoKey }))
    expect(isTaskCreationUnknownError(videoError), 'a 409 certainly created nothing').toBe(false)
    expect(videoError).toMatchObject({ status: 409, kind: 'rejected', permanent: true, code: 'idempotency_key_reused' })
  })

  it('400 naming the field, for a body the client was told to let through', async () => {
    const error = await errorOf(textToVideo$(simClient(sim), { prompt: 'A fox', safety_filter: true } as never, { allowUnknownFields: true }))
    expect(isTaskCreationUnknownError(error), 'a 400 certainly created nothing').toBe(false)
    expect(error).toMatchObject({ status: 400, kind: 'rejected', permanent: true, code: 'unknown_parameter' })
    expect((error as HttpError).gatewayMessage).toContain('safety_filter')
  })

  it('400 for cancelling a response that is not a background one', async () => {
    const created = await raw(sim, 'POST', RESPONSES_PATH, { model: 'gpt-4o', input: 'Say hi' })
    const error = await errorOf(cancelResponse$(simClient(sim), created.json.id))
    expect(error).toMatchObject({ status: 400, kind: 'rejected', permanent: true, code: 'not_cancellable' })
  })

  it("429 insufficient_quota: a rate-limit status that no retry fixes", async () => {
    sim.setFaults({ rateLimit: { every: 1, code: 'insufficient_quota' } })
    const error = await errorOf(responses$(simClient(sim, { adaptToRateLimits: false }), { model: 'gpt-4o', input: 'Say hi' }))
    expect(error).toMatchObject({ status: 429, kind: 'rate_limit', permanent: true, code: 'insufficient_quota' })
  })

  it('429 rate limit with Retry-After: a rate limit that a later try may pass', async () => {
    sim.setFaults({ rateLimit: { every: 1, retryAfter: '2' } })
    const error = await errorOf(task$(simClient(sim, { adaptToRateLimits: false }), endpoints.videoOne, TASK_ID))
    expect(error).toMatchObject({ status: 429, kind: 'rate_limit', permanent: false, retryAfterMs: 2000, code: 'rate_limit_exceeded' })
  })
})
