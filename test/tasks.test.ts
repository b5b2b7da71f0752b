import { take } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import type { Client } from '../src/client.js'
import { type TaskEndpoint, endpoints, taskEndpoint } from '../src/endpoints.js'
import { isTaskCreationUnknownError, TaskCreationUnknownError } from '../src/errors/TaskCreationUnknownError.js'
import type { TaskEvent } from '../src/operators/pollTask.js'
import { responses$ } from '../src/responses$.js'
import { createTask$, task$, textToVideo$ } from '../src/tasks$.js'
import type { TextToVideoRequest } from '../src/validation/textToVideoRequest.js'
import { fakeClient, inTurn, onClock, type TestClientOptions } from './helpers/client.js'
import { settle } from './helpers/clock.js'
import { observe } from './helpers/collect.js'
import { json, networkError, never, sse, type Answer, type FakeReply, type SeenRequest } from './helpers/fakeTransport.js'
import { created, frame, KEY, lifecycle, OTHER_TASK_ID, T0, T2V, TASK_ID, taskReply, VIDEO_URL } from './helpers/fixtures.js'
import { expectNoKeyFragment } from './helpers/secrets.js'

// A poll loop that never ends is the failure several tests look for: fail it fast.
vi.setConfig({ testTimeout: 5_000 })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const READ = `${T2V}/${TASK_ID}`
/** Polls a few ms apart, retries at once: timing is tested in the operator's own tests. */
const FAST: TestClientOptions = { taskPoll: { initialDelayMs: 10, factor: 1, maxDelayMs: 10, jitter: 0 }, retry: { baseDelayMs: 0 } }
const types = (events: TaskEvent[]) => events.map((e) => e.type)
const http = (status: number, body: unknown = { message: `failure ${status}` }, headers: Record<string, string> = {}) => json(body, status, headers)

/**
 * A gateway with one task: creation is answered by `creations` in turn (then
 * a 202), and each read of the task by `reads` in turn (then completed).
 */
function gateway(creations: FakeReply[] | (FakeReply | Error)[] = [], reads: (FakeReply | Error | string)[] = ['pending', 'processing', 'completed']): Answer {
  let posts = 0
  let gets = 0
  return (req: SeenRequest) => {
    if (req.method === 'POST') return creations[posts++] ?? json(created(), 202)
    const next = reads[Math.min(gets++, reads.length - 1)]!
    return typeof next === 'string' ? json(taskReply(next)) : next
  }
}

function run(call: (client: Client) => import('rxjs').Observable<TaskEvent>, answer: Answer, options: TestClientOptions = {}) {
  const setup = fakeClient(answer, { ...FAST, ...options })
  return { ...setup, o: onClock(setup.clock, observe(call(setup.client))) }
}

const t2v = (body: TextToVideoRequest = { prompt: 'A red kite over a grey sea' }, options = {}) => (client: Client) => textToVideo$(client, body, options)

describe('textToVideo$: creating and following', () => {
  it('POSTs the body with the bearer token and an Idempotency-Key, then follows the task: created, pending, processing, completed', async () => {
    const body = { prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5, seed: 7 } as const
    const { gw, o } = run(t2v(body), gateway())
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(types(values)).toEqual(['created', 'pending', 'processing', 'completed'])
    const post = gw.request(1)
    expect(post).toMatchObject({ method: 'POST', path: T2V, json: body })
    expect(post.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' })
    expect(post.headers['idempotency-key']).toMatch(UUID)
    expect(values[0]).toEqual({ type: 'created', taskId: TASK_ID, taskInfo: created().task_info, idempotencyKey: post.headers['idempotency-key'] })
    expect(values[3]).toMatchObject({ type: 'completed', taskId: TASK_ID, urls: [VIDEO_URL], expiresAt: new Date(Date.parse(T0) + 3_600_000) })
    expect(gw.requests.slice(1).map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill(`GET ${READ}`))
  })

  it('waits the client’s poll timing before each read', async () => {
    const { gw, clock, o } = run(t2v(), gateway(), { taskPoll: { initialDelayMs: 3_000, factor: 2, maxDelayMs: 5_000, jitter: 0 } })
    const at: number[] = []
    await clock.runUntil(() => {
      if (gw.requests.length > at.length + 1) at.push(clock.now())
      return o.completed
    })
    expect(at).toEqual([3_000, 8_000, 13_000]) // 3 s, then ×2 capped at 5 s
  })

  it('keeps the default of a poll field given as undefined, by the client or the call (no NaN delay that would poll at once)', async () => {
    const { gw, clock, o } = run(t2v(undefined, { poll: { factor: undefined, jitter: 0 } }), gateway(), { taskPoll: { initialDelayMs: 3_000, maxDelayMs: undefined } })
    const at: number[] = []
    await clock.runUntil(() => {
      if (gw.requests.length > at.length + 1) at.push(clock.now())
      return o.completed
    })
    expect(at).toEqual([3_000, 7_500, 14_250]) // 3 s, then ×1.5 (the default factor) up to the default 20 s
  })

  it('sends the caller’s own Idempotency-Key and reports it in the created event', async () => {
    const { gw, o } = run(t2v(undefined, { idempotencyKey: 'order-42' }), gateway())
    const { values } = await o.done
    expect(gw.request(1).headers['idempotency-key']).toBe('order-42')
    expect(values[0]).toMatchObject({ type: 'created', idempotencyKey: 'order-42' })
  })

  it('gives each subscription its own Idempotency-Key', async () => {
    const { gw, clock, client } = fakeClient(gateway(), FAST)
    const once$ = textToVideo$(client, { prompt: 'p' })
    await onClock(clock, observe(once$)).done
    await onClock(clock, observe(once$)).done
    const keys = gw.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key'])
    expect(keys).toHaveLength(2)
    expect(keys[0]).not.toBe(keys[1])
  })

  it('sends unknown fields when the caller opts in', async () => {
    const { gw, o } = run(t2v({ prompt: 'ok', safety_filter: true, audio: null } as TextToVideoRequest, { allowUnknownFields: true }), gateway())
    await o.done
    expect(gw.request(1).json).toEqual({ prompt: 'ok', safety_filter: true, audio: null })
  })

  it.each([
    ['an unknown field', { prompt: 'ok', safety_filter: true }],
    ['a prompt over 2,000 characters', { prompt: 'x'.repeat(2_001) }],
    ['a BigInt', { prompt: 'ok', seed: 7n }],
    ['a cycle', (() => { const b: Record<string, unknown> = { prompt: 'ok' }; b.self = b; return b })()],
    ['an inherited toJSON that sends a 5,000-character prompt and seed -5', Object.assign(Object.create({ toJSON: () => ({ prompt: 'p'.repeat(5_000), seed: -5 }) }), { prompt: 'ok' })],
    ['a body that is not an object', 'prompt'],
  ])('refuses %s with InvalidRequestError, sending nothing', async (_, body) => {
    const { gw, o } = run(t2v(body as TextToVideoRequest), gateway())
    const { error } = await o.done
    expect(error).toMatchObject({ name: 'InvalidRequestError' })
    expect((error as Error).message).toMatch(/Nothing was sent\.$/)
    expect(gw.requests).toHaveLength(0)
  })
})

describe('textToVideo$: a creation that certainly created nothing', () => {
  it.each([
    ['a refused connection', networkError('ECONNREFUSED')],
    ['a host not found', networkError('ENOTFOUND')],
    ['a failed DNS lookup', networkError('EAI_AGAIN')],
    ['a connect timeout', networkError('UND_ERR_CONNECT_TIMEOUT')],
    ['an unreachable host', networkError('EHOSTUNREACH')],
    ['an unreachable network', networkError('ENETUNREACH')],
    ['a 429 rate limit', http(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } })],
    ['a 503', http(503)],
  ])('is sent again after %s, with the same body and Idempotency-Key', async (_, failure) => {
    const { gw, o } = run(t2v(), gateway([failure as FakeReply]))
    const { values } = await o.done
    expect(types(values)).toEqual(['created', 'pending', 'processing', 'completed'])
    const posts = gw.requests.filter((r) => r.method === 'POST')
    expect(posts).toHaveLength(2)
    expect(posts[1]!.body).toBe(posts[0]!.body)
    expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key'])
  })

  it('waits the Retry-After of a refused creation', async () => {
    const { gw, clock, o } = run(t2v(), gateway([http(429, {}, { 'retry-after': '7' })]))
    await settle()
    expect(clock.pendingDelays).toEqual([7_000])
    await clock.run(6_999)
    expect(gw.requests).toHaveLength(1)
    await clock.run(1)
    expect(gw.requests).toHaveLength(2)
    expect((await o.done).completed).toBe(true)
  })

  it('ends in the HttpError after `count` refusals: nothing was created', async () => {
    const { gw, o } = run(t2v(), gateway([http(503), http(503), http(503)]), { retry: { count: 2, baseDelayMs: 0 } })
    const { error } = await o.done
    expect(error).toMatchObject({ name: 'HttpError', status: 503 })
    expect(isTaskCreationUnknownError(error)).toBe(false)
    expect(gw.requests).toHaveLength(3)
  })

  it('is not sent again after a 429 insufficient_quota, which no retry fixes: a permanent HttpError', async () => {
    const { gw, o } = run(t2v(), gateway([http(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } })]))
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 429, permanent: true })
    expect(gw.requests).toHaveLength(1)
  })

  it.each([400, 401, 402, 403, 404, 422])('is not sent again after %i, and ends in the HttpError', async (status) => {
    const { gw, o } = run(t2v(), gateway([http(status)]))
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status })
    expect(gw.requests).toHaveLength(1)
  })

  it('reports 403 as forbidden', async () => {
    const { o } = run(t2v(), gateway([http(403, { detail: 'model not allowed' })]))
    expect((await o.done).error).toMatchObject({ name: 'HttpError', kind: 'forbidden', gatewayMessage: 'model not allowed' })
  })
})

describe('textToVideo$: a creation whose outcome is unknown', () => {
  const cut = (text: string): FakeReply => ({ status: 202, headers: { 'content-type': 'application/json' }, body: text })
  const whole = JSON.stringify(created())
  const cases: [string, FakeReply | Error | 'timeout', Record<string, unknown>, string | undefined][] = [
    ['a connection reset after sending', networkError('ECONNRESET'), { name: 'ConnectionError', sent: true }, undefined],
    ['a socket closed after sending', networkError('UND_ERR_SOCKET'), { name: 'ConnectionError', sent: true }, undefined],
    ['a timeout after sending', 'timeout', { name: 'TimeoutError', reason: 'silence' }, undefined],
    ['a 500', http(500), { name: 'HttpError', status: 500 }, undefined],
    ['a 502', http(502), { name: 'HttpError', status: 502 }, undefined],
    ['a 504', http(504), { name: 'HttpError', status: 504 }, undefined],
    ['a 408', http(408), { name: 'HttpError', status: 408 }, undefined],
    ['a 202 that is not JSON', cut('Accepted'), { name: 'ValidationError' }, undefined],
    ['a 202 HTML page', { status: 202, headers: { 'content-type': 'text/html' }, body: '<html>accepted</html>' }, { name: 'ValidationError' }, undefined],
    ['a 202 of the wrong shape holding a task id', json({ task_info: { id: TASK_ID } }, 202), { name: 'ValidationError' }, TASK_ID],
    ['a 202 cut in the middle of the JSON, after the id', cut(whole.slice(0, whole.indexOf('created_at') + 15)), { name: 'ValidationError' }, TASK_ID],
    ['a 202 cut in the middle of the id', cut(whole.slice(0, whole.indexOf(TASK_ID) + 10)), { name: 'ValidationError' }, undefined],
    ['a 202 whose id is not a UUID', json({ task_info: { id: 'not-a-uuid', created_at: T0, updated_at: T0 } }, 202), { name: 'ValidationError' }, undefined],
  ]

  it.each(cases)('after %s ends in TaskCreationUnknownError (endpoint, idempotencyKey, taskId, cause), and is not sent again', async (_, failure, cause, taskId) => {
    const answer = gateway(failure === 'timeout' ? [] : [failure as FakeReply])
    const { gw, o } = run(t2v(), (req) => (req.n === 1 && failure === 'timeout' ? never() : answer(req)), { timeoutMs: 5_000 })
    const { values, error } = await o.done
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(TaskCreationUnknownError)
    const sentKey = gw.request(1).headers['idempotency-key']
    expect(error).toMatchObject({ name: 'TaskCreationUnknownError', endpoint: endpoints.t2vSpark, idempotencyKey: sentKey, cause })
    expect((error as TaskCreationUnknownError).taskId).toBe(taskId)
    expect((error as Error).message).toContain('may have succeeded')
    expect((error as Error).message).toContain(taskId ? `follow it with task$(client, endpoint, '${taskId}')` : `create again with { idempotencyKey: '${sentKey}' }`)
    expect(gw.requests).toHaveLength(1)
    if (failure === 'timeout') expect(gw.request(1).aborted).toBe(true)
  })

  it('after a 202 whose body breaks off in the network ends in TaskCreationUnknownError', async () => {
    const body = (function* () {
      yield '{"task_info":{"id":"'
      throw networkError('ECONNRESET')
    })()
    const { gw, o } = run(t2v(), gateway([{ status: 202, body }]))
    expect((await o.done).error).toMatchObject({ name: 'TaskCreationUnknownError', cause: { name: 'ConnectionError', sent: true } })
    expect(gw.requests).toHaveLength(1)
  })

  describe('with idempotentCreate (the gateway honours Idempotency-Key)', () => {
    it.each([
      ['a reset after sending', networkError('ECONNRESET')],
      ['a 500', http(500)],
      ['a 202 cut mid-JSON', cut(whole.slice(0, 30))],
    ])('is sent again after %s with the same key, and the task is followed', async (_, failure) => {
      const { gw, o } = run(t2v(), gateway([failure as FakeReply]), { idempotentCreate: true })
      const { values } = await o.done
      expect(types(values)).toEqual(['created', 'pending', 'processing', 'completed'])
      const keys = gw.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key'])
      expect(keys).toEqual([keys[0], keys[0]])
    })

    it('ends in TaskCreationUnknownError after 5 retries (as many failures as a follow rides out), every one sent with the same key', async () => {
      const failures = [http(500), http(502), networkError('ECONNRESET'), http(504), http(500), networkError('ECONNRESET')]
      const { gw, o } = run(t2v(), gateway(failures), { idempotentCreate: true, retry: { count: 2, baseDelayMs: 0 } })
      const { error } = await o.done
      expect(error).toMatchObject({ name: 'TaskCreationUnknownError', cause: { name: 'ConnectionError' } })
      const keys = gw.requests.map((r) => r.headers['idempotency-key'])
      expect(keys).toEqual(Array(6).fill(keys[0]))
      expect((error as TaskCreationUnknownError).idempotencyKey).toBe(keys[0])
    })

    // The last attempt alone would say "nothing was created"; an earlier one may have made the task.
    it.each([
      ['refused connections, once 5 failures in a row are spent', Array.from({ length: 5 }, () => networkError('ECONNREFUSED'))],
      ['a rate-limiting 429 to wait out longer than allowed', [http(429, { detail: 'slow down' }, { 'retry-after': '3600' })]],
      ['a 400', [http(400, { detail: 'bad' })]],
    ])('still ends in TaskCreationUnknownError when retries after a reset end in %s', async (_, rest) => {
      const { gw, o } = run(t2v(), gateway([networkError('ECONNRESET'), ...(rest as FakeReply[])]), { idempotentCreate: true, retry: { count: 1, baseDelayMs: 0 } })
      const { error } = await o.done
      const keys = gw.requests.map((r) => r.headers['idempotency-key'])
      expect(keys).toEqual(Array(1 + rest.length).fill(keys[0]))
      expect(error).toBeInstanceOf(TaskCreationUnknownError)
      expect((error as TaskCreationUnknownError).idempotencyKey).toBe(keys[0])
    })

    // A 503 or a refused connection certainly made nothing, but an earlier attempt
    // may have: giving up at `retry.count` would leave an unknown outcome while a
    // resend with the key is still safe.
    it.each([
      ['503s', () => http(503)],
      ['refused connections', () => networkError('ECONNREFUSED')],
    ])('rides out %s after a reset past `retry.count`, and the task is followed', async (_, failure) => {
      const replies = [networkError('ECONNRESET'), failure(), failure(), failure()]
      const { gw, o } = run(t2v(), gateway(replies as FakeReply[]), { idempotentCreate: true, retry: { count: 1, baseDelayMs: 0 } })
      const { values, error } = await o.done
      expect(error).toBeUndefined()
      expect(types(values)).toEqual(['created', 'pending', 'processing', 'completed'])
      const keys = gw.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key'])
      expect(keys).toEqual(Array(5).fill(keys[0]))
    })

    it('keeps to `retry.count` when no attempt may have arrived, and ends in the plain error: nothing was created', async () => {
      const { gw, o } = run(t2v(), gateway([http(503), http(503), http(503)] as FakeReply[]), { idempotentCreate: true, retry: { count: 1, baseDelayMs: 0 } })
      const { error } = await o.done
      expect(error).toMatchObject({ name: 'HttpError', status: 503 })
      expect(gw.requests).toHaveLength(2)
    })

    it('keeps the task id an earlier reply held when a later attempt fails otherwise', async () => {
      const refused = Array.from({ length: 4 }, () => networkError('ECONNREFUSED'))
      const { o } = run(t2v(), gateway([json({ task_info: { id: TASK_ID } }, 202), http(500), ...refused]), { idempotentCreate: true, retry: { count: 2, baseDelayMs: 0 } })
      const { error } = await o.done
      expect(error).toMatchObject({ name: 'TaskCreationUnknownError', taskId: TASK_ID })
    })
  })
})

describe('per-call options are checked before anything is sent', () => {
  it.each([
    ['a poll delay that is not a number', { poll: { initialDelayMs: 'soon' } }, 'poll.initialDelayMs'],
    ['a zero poll delay (a loop hammering the gateway)', { poll: { initialDelayMs: 0 } }, 'poll.initialDelayMs'],
    ['a misspelt poll field', { poll: { every: 100 } }, 'poll.every'],
    ['a zero deadline', { deadlineMs: 0 }, 'deadlineMs'],
    ['an idempotency key with a line break', { idempotencyKey: 'abc\ndef' }, 'idempotencyKey'],
    ['an empty idempotency key', { idempotencyKey: '' }, 'idempotencyKey'],
  ])('textToVideo$ and createTask$ refuse %s with InvalidRequestError, creating nothing', async (_, options, field) => {
    for (const call of [
      (client: Client) => textToVideo$(client, { prompt: 'p' }, options as never),
      (client: Client) => createTask$(client, endpoints.i2iPreview, { prompt: 'p' }, options as never),
    ]) {
      const { gw, o } = run(call, gateway())
      const { error } = await o.done
      expect((error as Error).name).toBe('InvalidRequestError')
      expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([field])
      expect(gw.requests).toHaveLength(0)
    }
  })

  it('task$ refuses bad poll options with InvalidRequestError, reading nothing', async () => {
    const { gw, o } = run((client) => task$(client, endpoints.t2vSpark, TASK_ID, { poll: { factor: 0 } }), gateway())
    const { error } = await o.done
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['poll.factor'])
    expect(gw.requests).toHaveLength(0)
  })
})

describe('textToVideo$: a creation waiting for its turn in the budget', () => {
  it('is not timed out while it waits: timeoutMs starts when it is sent, so it creates the task once instead of ending ambiguous', async () => {
    const answer: Answer = (req) => (req.path.includes('/responses') ? sse('fed') : req.method === 'POST' ? json(created(), 202) : json(taskReply('completed')))
    const { gw, clock, client } = fakeClient(answer, { ...FAST, maxConcurrency: 1, adaptToRateLimits: false, timeoutMs: 1_000 })
    // A stream holds the only place for 3 s, an event every 500 ms.
    const stream = observe(responses$(client, { model: 'm', stream: true }))
    await settle()
    const video = observe(textToVideo$(client, { prompt: 'A red kite over a grey sea' }))
    for (let seq = 0; seq < 6; seq++) {
      gw.request(1).fed!.push(frame(lifecycle('response.in_progress', seq)))
      await clock.run(500)
    }
    expect(gw.requests).toHaveLength(1)
    expect(video.error).toBeUndefined()
    gw.request(1).fed!.push(frame(lifecycle('response.completed', 6)))
    gw.request(1).fed!.end()
    await clock.runUntil(() => video.completed || video.error !== undefined, 60_000)
    expect(stream.completed).toBe(true)
    expect(video.error).toBeUndefined()
    expect(video.values.map((e) => e.type)).toEqual(['created', 'completed'])
    expect(gw.requests.filter((r) => r.method === 'POST' && r.path === T2V)).toHaveLength(1)
  })
})

describe('textToVideo$: following after creation', () => {
  const notJson: FakeReply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"task_info":' }
  const transient: [string, FakeReply | Error][] = [
    ['not JSON', notJson],
    ['of the wrong shape', json({ task_info: { id: TASK_ID, status: 'exploded' } })],
    ['naming another task', json(taskReply('processing', { id: OTHER_TASK_ID }))],
    ['an HTML page', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy error</html>' }],
    ['a 502', http(502)],
    ['a 429 with Retry-After', http(429, {}, { 'retry-after': '1' })],
    ['a reset', networkError('ECONNRESET')],
  ]

  it.each(transient)('survives 5 poll replies in a row that are %s, and completes', async (_, failure) => {
    const { o } = run(t2v(), gateway([], ['pending', failure, failure, failure, failure, failure, 'completed'] as FakeReply[]))
    const { values, error } = await o.done
    expect(error).toBeUndefined()
    expect(types(values)).toEqual(['created', 'pending', 'completed'])
  })

  it.each(transient)('ends after a 6th poll reply in a row that is %s, with the task id and endpoint on the error', async (_, failure) => {
    const { gw, o } = run(t2v(), gateway([], ['pending', failure, failure, failure, failure, failure, failure, 'completed'] as FakeReply[]))
    const { values, error } = await o.done
    expect(types(values)).toEqual(['created', 'pending'])
    expect(error).toMatchObject({ taskId: TASK_ID, endpoint: endpoints.t2vSpark })
    expect(gw.requests.filter((r) => r.method === 'GET')).toHaveLength(7)
  })

  it('starts counting failures again after a good reply', async () => {
    const f = http(503)
    const { o } = run(t2v(), gateway([], [f, f, f, f, f, 'pending', f, f, f, f, f, 'completed'] as FakeReply[]))
    const { values, error } = await o.done
    expect(error).toBeUndefined()
    expect(types(values)).toEqual(['created', 'pending', 'completed'])
  })

  it('never emits a status that goes backwards', async () => {
    const { o } = run(t2v(), gateway([], ['processing', 'pending', 'processing', 'queued', 'completed']))
    expect(types((await o.done).values)).toEqual(['created', 'processing', 'completed'])
  })

  it.each([
    ['a failed task: TaskFailedError', ['pending', 'failed'], { name: 'TaskFailedError', code: 3001, detail: 'prompt refused' }],
    ['a 404 on a read: HttpError', ['pending', http(404, { detail: 'unknown task' }) as unknown as string], { name: 'HttpError', status: 404 }],
    ['a completed reply without URLs, 6 times: ValidationError', ['pending', ...Array(6).fill(json({ task_info: taskReply('completed').task_info })) as string[]], { name: 'ValidationError' }],
  ])('ends a follow on %s naming the task and endpoint', async (_, reads, error) => {
    const { o } = run(t2v(), gateway([], reads as FakeReply[]))
    expect((await o.done).error).toMatchObject({ ...error, taskId: TASK_ID, endpoint: endpoints.t2vSpark })
  })

  it('ends a follow past its deadlineMs in TaskTimeoutError with the task, endpoint and last status', async () => {
    const { clock, o } = run(t2v(undefined, { deadlineMs: 60_000 }), gateway([], ['processing']), { taskPoll: { initialDelayMs: 7_000, factor: 1, jitter: 0 } })
    const { error } = await o.done
    expect(error).toMatchObject({ name: 'TaskTimeoutError', taskId: TASK_ID, endpoint: endpoints.t2vSpark, deadlineMs: 60_000, lastStatus: 'processing' })
    expect(clock.now()).toBe(60_000)
    expect(clock.pending).toBe(0)
  })

  it('unsubscribed during creation: aborts the POST', async () => {
    const { gw, clock, o } = run(t2v(), () => never())
    await settle()
    o.subscription.unsubscribe()
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })

  it('unsubscribed while waiting to poll: no read is sent and no timer is left', async () => {
    const { gw, clock, o } = run(t2v(), gateway())
    await settle()
    expect(types(o.values)).toEqual(['created'])
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    await clock.run(60_000)
    expect(gw.requests).toHaveLength(1)
  })

  it('stopped at its created event (take(1)): no follow is started, no read sent, no timer left', async () => {
    const { gw, clock, o } = run((client) => textToVideo$(client, { prompt: 'A red kite over a grey sea' }).pipe(take(1)), gateway())
    const { values, completed } = await o.done
    expect([types(values), completed]).toEqual([['created'], true])
    expect(clock.pending).toBe(0)
    await clock.run(60_000)
    expect(gw.requests.map((r) => r.method)).toEqual(['POST'])
  })

  it('unsubscribed during a read: aborts it', async () => {
    const { gw, clock, o } = run(t2v(), (req) => (req.method === 'POST' ? json(created(), 202) : never()))
    await clock.run(10)
    expect(gw.request(2).method).toBe('GET')
    o.subscription.unsubscribe()
    expect(gw.request(2).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })

  it('never lets the key out in an error of the follow', async () => {
    const { o } = run(t2v(), gateway([], [http(401, { detail: `revoked key ${KEY}` }) as unknown as string]))
    const { error } = await o.done
    expect(error).toMatchObject({ name: 'HttpError', taskId: TASK_ID })
    expectNoKeyFragment(error)
  })
})

describe('createTask$', () => {
  it('refuses an endpoint without a creation path, sending nothing', async () => {
    const { gw, o } = run((c) => createTask$(c, endpoints.imageEdit, { prompt: 'x' }), gateway())
    expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'endpoint' }] })
    expect(gw.requests).toHaveLength(0)
  })

  it.each([['a string', 'prompt'], ['an array', [1]], ['null', null], ['a BigInt inside', { n: 1n }]])('refuses a body that is %s, sending nothing', async (_, body) => {
    const { gw, o } = run((c) => createTask$(c, endpoints.i2iPreview, body as object), gateway())
    expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError' })
    expect(gw.requests).toHaveLength(0)
  })

  it('creates at the endpoint’s path with the body as given, and follows the task to its images', async () => {
    const reads = [json(taskReply('completed', { field: 'images', urls: ['https://cdn.test/1.png'] }))]
    const { gw, o } = run((c) => createTask$(c, endpoints.i2iPreview, { prompt: 'watercolour', image_url: 'https://x.test/a.png' }), gateway([], reads as FakeReply[]))
    const { values } = await o.done
    expect(values.at(-1)).toMatchObject({ type: 'completed', urls: ['https://cdn.test/1.png'] })
    expect(gw.request(1)).toMatchObject({ method: 'POST', path: '/vendors/vendor-d/v1/i2i-preview/generation', json: { prompt: 'watercolour', image_url: 'https://x.test/a.png' } })
    expect(gw.request(1).headers['idempotency-key']).toMatch(UUID)
    expect(gw.request(2).path).toBe(`/vendors/vendor-d/v1/i2i-preview/generation/${TASK_ID}`)
  })

  it('addresses a model outside the catalog by the path pattern, and reports an ambiguous creation there', async () => {
    const wan = taskEndpoint({ vendor: 'vendor-b', model: 't2v-wan26', kind: 'video' })
    const { gw, o } = run((c) => createTask$(c, wan, { prompt: 'x' }), gateway([http(500)]))
    expect((await o.done).error).toMatchObject({ name: 'TaskCreationUnknownError', endpoint: wan })
    expect(gw.request(1).path).toBe('/vendors/vendor-b/v1/t2v-wan26/generation')
  })
})

describe('task$', () => {
  const cases = [
    ['t2vSpark', '/vendors/vendor-b/v1/t2v-spark/generation', 'videos'],
    ['videoOne', '/vendors/vendor-a/v1/video-one/generation', 'videos'],
    ['i2vSpark', '/vendors/vendor-b/v1/i2v-spark/generation', 'videos'],
    ['videoTwo', '/vendors/vendor-c/v1/video-two/generation', 'videos'],
    ['imageEdit', '/vendors/vendor-d/v1/image/edit', 'images'],
    ['i2iPreview', '/vendors/vendor-d/v1/i2i-preview/generation', 'images'],
  ] as const

  describe.each([
    ['the interface’s', ['pending', 'processing', 'completed']],
    ['the newer', ['queued', 'running', 'succeeded']],
  ])('%s status words', (_, words) => {
    it.each(cases)('%s: reads %s/{id} at once, then polls, yielding %s', async (name, path, field) => {
      const urls = field === 'videos' ? [VIDEO_URL] : ['https://cdn.test/1.png', 'https://cdn.test/2.png']
      const reads = words.map((w) => json(taskReply(w, { field, urls })))
      const { gw, o } = run((c) => task$(c, endpoints[name], TASK_ID), gateway([], reads))
      const { values } = await o.done
      expect(types(values)).toEqual(['pending', 'processing', 'completed'])
      expect(values[2]).toMatchObject({ urls })
      expect('expiresAt' in values[2]!).toBe(field === 'videos')
      expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill(`GET ${path}/${TASK_ID}`))
    })
  })

  it('reads at once, without waiting for a poll delay', async () => {
    const { gw, clock } = run((c) => task$(c, endpoints.t2vSpark, TASK_ID), gateway([], ['processing']), { taskPoll: { initialDelayMs: 10_000, jitter: 0 } })
    await settle()
    expect(gw.requests).toHaveLength(1)
    expect(clock.now()).toBe(0)
  })

  it.each(['', '../x', 'abc', `${TASK_ID}/../../x`, `${TASK_ID}?a=1`, 'a/b', 42])('refuses the task id %j, sending nothing', async (id) => {
    const { gw, o } = run((c) => task$(c, endpoints.t2vSpark, id as string), gateway())
    expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'taskId' }] })
    expect(gw.requests).toHaveLength(0)
  })

  it('shares one poll loop between subscribers of the same task (any case); a late one gets the latest status at once', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['processing', 'processing', 'completed']), FAST)
    const a = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    await settle()
    const b = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID.toUpperCase())))
    expect(types(b.values)).toEqual(['processing'])
    await a.done
    await b.done
    expect(types(a.values)).toEqual(['processing', 'completed'])
    expect(types(b.values)).toEqual(['processing', 'completed'])
    expect(b.completed).toBe(true)
    expect(gw.requests).toHaveLength(3)
  })

  it('keeps polling while one subscriber remains, and stops (aborting the read, clearing the timer) when the last leaves', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['processing']), FAST)
    const a = observe(task$(client, endpoints.t2vSpark, TASK_ID))
    const b = observe(task$(client, endpoints.t2vSpark, TASK_ID))
    await clock.run(25)
    const reads = gw.requests.length
    a.subscription.unsubscribe()
    await clock.run(25)
    expect(gw.requests.length).toBeGreaterThan(reads)
    b.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    const after = gw.requests.length
    await clock.run(1_000)
    expect(gw.requests).toHaveLength(after)
  })

  it('follows a task again after its follow completed: a new subscriber reads it anew and completes', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['completed']), FAST)
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))).done
    const again = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    const { values, completed } = await again.done
    expect(completed).toBe(true)
    expect(types(values)).toEqual(['completed'])
    expect(gw.requests).toHaveLength(2)
  })

  it('follows a task again after its follow failed: a new subscriber reads it anew', async () => {
    const { gw, clock, client } = fakeClient(inTurn(http(404), json(taskReply('completed'))), FAST)
    expect((await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))).done).error).toMatchObject({ name: 'HttpError', taskId: TASK_ID, endpoint: endpoints.t2vSpark })
    const { completed } = await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))).done
    expect(completed).toBe(true)
    expect(gw.requests).toHaveLength(2)
  })

  it('follows a task again after every subscriber left: a new subscriber reads it anew', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['processing', 'completed']), FAST)
    const first = observe(task$(client, endpoints.t2vSpark, TASK_ID))
    await settle()
    first.subscription.unsubscribe()
    const again = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    expect(again.values).toEqual([])
    const { completed } = await again.done
    expect(completed).toBe(true)
    expect(gw.requests).toHaveLength(2)
  })

  it('follows the same id at two endpoints apart', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['completed']), FAST)
    const a = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    const b = onClock(clock, observe(task$(client, endpoints.videoOne, TASK_ID)))
    await a.done
    await b.done
    expect(gw.requests.map((r) => r.path).sort()).toEqual([`/vendors/vendor-a/v1/video-one/generation/${TASK_ID}`, READ])
  })

  it('follows the same task apart for two clients', async () => {
    const answer = gateway([], ['completed'])
    const one = fakeClient(answer, FAST)
    const two = fakeClient(answer, { ...FAST, transport: one.gw.transport, scheduler: one.clock })
    const a = onClock(one.clock, observe(task$(one.client, endpoints.t2vSpark, TASK_ID)))
    const b = onClock(one.clock, observe(task$(two.client, endpoints.t2vSpark, TASK_ID)))
    await a.done
    await b.done
    expect(one.gw.requests).toHaveLength(2)
  })
})

describe('tasks: what a refusal or an unreadable reply says', () => {
  it('names the text-to-video request in the message of a body that breaks the interface', async () => {
    const { gw, o } = run(t2v({ prompt: 'p', colour: 'red' } as unknown as TextToVideoRequest), gateway())
    const { error } = await o.done
    expect((error as Error).message).toMatch(/^Invalid text-to-video request: colour: /)
    expect(gw.requests).toHaveLength(0)
  })

  it('names the endpoint without a creation path, and the task creation body that is not an object', async () => {
    const noPath = await run((c) => createTask$(c, endpoints.imageEdit, { prompt: 'x' }), gateway()).o.done
    expect((noPath.error as Error).message).toBe('Invalid request: endpoint: vendor-d/image-edit has no creation path; create its tasks elsewhere and follow them with task$. Nothing was sent.')
    const none = await run((c) => createTask$(c, undefined as unknown as TaskEndpoint, { prompt: 'x' }), gateway()).o.done
    expect((none.error as Error).message).toBe('Invalid request: endpoint: must be a task endpoint, such as endpoints.t2vSpark or one made by taskEndpoint() (got undefined). Nothing was sent.')
    const notObject = await run((c) => createTask$(c, endpoints.i2iPreview, [1]), gateway()).o.done
    expect((notObject.error as Error).message).toBe('Invalid task creation body: must be an object, not a list. Nothing was sent.')
    const text = await run((c) => createTask$(c, endpoints.i2iPreview, 'prompt' as unknown as object), gateway()).o.done
    expect((text.error as Error).message).toBe('Invalid task creation body: must be an object. Nothing was sent.')
  })

  it('refuses a missing endpoint (plain JavaScript) with InvalidRequestError, sending nothing', async () => {
    const { gw, o } = run((c) => createTask$(c, undefined as never, { prompt: 'x' }), gateway())
    expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'endpoint' }] })
    expect(gw.requests).toHaveLength(0)
  })

  it('names the creation path in the cause of an unreadable 202', async () => {
    const { o } = run(t2v(), gateway([json({ task_info: { id: TASK_ID } }, 202)]))
    const { error } = await o.done
    expect(error).toBeInstanceOf(TaskCreationUnknownError)
    expect(((error as Error).cause as Error).message).toMatch(new RegExp(`^Unexpected reply to ${T2V} from the gateway: task_info\\.created_at: `))
  })

  it('names the result path in the error of an unreadable task reply', async () => {
    const bad = json({ task_info: { id: TASK_ID, status: 'exploded' } })
    const { o } = run((c) => task$(c, endpoints.t2vSpark, TASK_ID), gateway([], [bad, bad, bad, bad, bad, bad] as unknown as string[]))
    const { error } = await o.done
    expect((error as Error).message).toMatch(new RegExp(`^Unexpected reply to ${T2V}/\\{task_id\\} from the gateway: `))
  })

  it.each([
    ['null', 'null', undefined],
    ['an object without task_info', '{"status":"accepted"}', undefined],
    ['task_info without an id', '{"task_info":{"status":"pending"}}', undefined],
    ['cut after an id written with spaces around the colon', `{"task_info": {"id" : "${TASK_ID}", "created_at": "2026`, TASK_ID],
  ])('reads a 202 that is %s as an unknown outcome, with the task id when it held one', async (_, body, taskId) => {
    const { gw, o } = run(t2v(), gateway([{ status: 202, headers: { 'content-type': 'application/json' }, body }]))
    const { error } = await o.done
    expect(error).toBeInstanceOf(TaskCreationUnknownError)
    expect(error).toMatchObject({ cause: { name: 'ValidationError' } })
    expect((error as TaskCreationUnknownError).taskId).toBe(taskId)
    expect(gw.requests).toHaveLength(1)
  })
})

describe('task$: subscribers sharing one follow', () => {
  it('gives a second subscriber that comes before any status nothing until the first status', async () => {
    const { clock, client } = fakeClient(gateway([], ['processing', 'completed']), FAST)
    const a = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    const b = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    expect(b.values).toEqual([])
    await a.done
    await b.done
    expect(types(b.values)).toEqual(['processing', 'completed'])
  })

  it('still gives every status to the others when one subscriber leaves on the first (take(1))', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['processing', 'completed']), FAST)
    const first = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID).pipe(take(1))))
    const second = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    const third = onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID)))
    await first.done
    await second.done
    await third.done
    expect(types(first.values)).toEqual(['processing'])
    expect(types(second.values)).toEqual(['processing', 'completed'])
    expect(types(third.values)).toEqual(['processing', 'completed'])
    expect(gw.requests).toHaveLength(2)
  })

  it('ends every subscriber with the error that ends the follow', async () => {
    const { clock, client } = fakeClient(gateway([], [http(404) as unknown as string]), FAST)
    const follows = [0, 1, 2].map(() => onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))))
    for (const f of follows) expect((await f.done).error).toMatchObject({ name: 'HttpError', status: 404, taskId: TASK_ID })
  })

  it('completes every subscriber when the task completes', async () => {
    const { clock, client } = fakeClient(gateway([], ['completed']), FAST)
    const follows = [0, 1, 2].map(() => onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))))
    for (const f of follows) expect(await f.done).toMatchObject({ completed: true, error: undefined })
  })

  it('stops polling when the last subscriber leaves, whatever the order they leave in', async () => {
    const { gw, clock, client } = fakeClient(gateway([], ['processing']), FAST)
    const a = observe(task$(client, endpoints.t2vSpark, TASK_ID))
    const b = observe(task$(client, endpoints.t2vSpark, TASK_ID))
    await clock.run(25)
    b.subscription.unsubscribe()
    await clock.run(25)
    a.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    const after = gw.requests.length
    await clock.run(1_000)
    expect(gw.requests).toHaveLength(after)
  })
})

describe('tasks: follow settings', () => {
  /** A client whose gateway answers each task by its id with `statuses` in turn (then the last), noting the time of every read. */
  function timed(statuses: Record<string, string[]>, options: TestClientOptions = {}) {
    const reads: [string, number][] = []
    const served: Record<string, number> = {}
    const setup = fakeClient((req) => {
      const id = req.path.split('/').at(-1)!
      reads.push([id, setup.clock.now()])
      const list = statuses[id]!
      return json(taskReply(list[Math.min((served[id] = (served[id] ?? -1) + 1), list.length - 1)]!, { id }))
    }, { ...FAST, ...options })
    const timesOf = (id: string) => reads.filter(([r]) => r === id).map(([, at]) => at)
    return { ...setup, timesOf }
  }
  const slow = { initialDelayMs: 500, factor: 1, maxDelayMs: 500, jitter: 0 }

  it('applies a call’s own poll timing after a follow without options on the same client', async () => {
    const { client, clock, timesOf } = timed({ [TASK_ID]: ['processing', 'processing', 'completed'], [OTHER_TASK_ID]: ['processing', 'processing', 'completed'] })
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))).done
    expect(timesOf(TASK_ID)).toEqual([0, 10, 20])
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, OTHER_TASK_ID, { poll: slow }))).done
    expect(timesOf(OTHER_TASK_ID)).toEqual([20, 520, 1_020])
  })

  it('applies a call’s own deadline after a follow without options on the same client', async () => {
    const { client, clock } = timed({ [TASK_ID]: ['completed'], [OTHER_TASK_ID]: ['processing'] })
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))).done
    const start = clock.now()
    const { error } = await onClock(clock, observe(task$(client, endpoints.t2vSpark, OTHER_TASK_ID, { deadlineMs: 100 }))).done
    expect(error).toMatchObject({ name: 'TaskTimeoutError' })
    expect(clock.now() - start).toBe(100)
  })

  it('keeps a call’s own poll timing to that call: a later follow without options polls at the client’s', async () => {
    const { client, clock, timesOf } = timed({ [TASK_ID]: ['completed'], [OTHER_TASK_ID]: ['processing', 'processing', 'completed'] })
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID, { poll: slow }))).done
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, OTHER_TASK_ID))).done
    expect(timesOf(OTHER_TASK_ID)).toEqual([0, 10, 20])
  })

  it('applies each call’s own poll timing, one after the other on the same client', async () => {
    const { client, clock, timesOf } = timed({ [TASK_ID]: ['processing', 'completed'], [OTHER_TASK_ID]: ['processing', 'completed'] })
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID, { poll: slow }))).done
    const start = clock.now()
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, OTHER_TASK_ID, { poll: { ...slow, initialDelayMs: 200, maxDelayMs: 200 } }))).done
    expect(timesOf(TASK_ID)).toEqual([0, 500])
    expect(timesOf(OTHER_TASK_ID).map((t) => t - start)).toEqual([0, 200])
  })

  it('applies each call’s own deadline, one after the other on the same client', async () => {
    const { client, clock } = timed({ [TASK_ID]: ['processing'], [OTHER_TASK_ID]: ['processing'] })
    await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID, { deadlineMs: 100 }))).done
    const start = clock.now()
    const { error } = await onClock(clock, observe(task$(client, endpoints.t2vSpark, OTHER_TASK_ID, { deadlineMs: 300 }))).done
    expect(error).toMatchObject({ name: 'TaskTimeoutError' })
    expect(clock.now() - start).toBe(300)
  })

  it('waits out a poll’s Retry-After only up to the client’s retry.maxRetryAfterMs', async () => {
    const busy = http(429, {}, { 'retry-after': '5' }) as unknown as string
    const { gw, o } = run((c) => task$(c, endpoints.t2vSpark, TASK_ID), gateway([], [busy, 'completed']), { retry: { baseDelayMs: 0, maxRetryAfterMs: 1_000 } })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 429 })
    expect(gw.requests).toHaveLength(1)
  })

  it('follows a created task after a task$ of the same endpoint on the same client', async () => {
    const setup = fakeClient(gateway([], ['completed']), FAST)
    await onClock(setup.clock, observe(task$(setup.client, endpoints.t2vSpark, TASK_ID))).done
    const { values, error } = await onClock(setup.clock, observe(textToVideo$(setup.client, { prompt: 'p' }))).done
    expect(error).toBeUndefined()
    expect(types(values)).toEqual(['created', 'completed'])
  })

  it('does not poll again after a failed read when the client has retry: false', async () => {
    const { gw, o } = run((c) => task$(c, endpoints.t2vSpark, TASK_ID), gateway([], [http(503) as unknown as string, 'completed']), { retry: false })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 503 })
    expect(gw.requests).toHaveLength(1)
  })

  it('numbers the retries of a failed read in the onRequest hook', async () => {
    const retries: number[] = []
    const { o } = run((c) => task$(c, endpoints.t2vSpark, TASK_ID), gateway([], [http(503) as unknown as string, http(503) as unknown as string, 'completed']), { hooks: { onRequest: (e) => retries.push(e.retry) } })
    expect((await o.done).completed).toBe(true)
    expect(retries).toEqual([0, 1, 2])
  })
})

describe('tasks: arguments of the wrong kind (plain JavaScript) end in InvalidRequestError, and nothing is sent', () => {
  const ID = TASK_ID
  const notEndpoints: [string, unknown, string][] = [
    ['null', null, 'endpoint'],
    ['a model name', 't2v-spark', 'endpoint'],
    ['a number', 5, 'endpoint'],
    ['a list', [endpoints.t2vSpark], 'endpoint'],
    ['an object without resultPath', { name: 'app/x', kind: 'image', createPath: '/x/generation' }, 'endpoint.resultPath'],
    ['an object of an unknown kind', { name: 'app/x', kind: 'audio', createPath: '/x/generation', resultPath: '/x/generation' }, 'endpoint.kind'],
    ['a result path with a query', { name: 'app/x', kind: 'image', createPath: '/x/generation', resultPath: '/x/generation?debug=1' }, 'endpoint.resultPath'],
    ['a relative creation path', { name: 'app/x', kind: 'image', createPath: 'x/generation', resultPath: '/x/generation' }, 'endpoint.createPath'],
    ['a result path that climbs out with ..', { name: 'app/x', kind: 'image', createPath: '/x/generation', resultPath: '/x/../admin' }, 'endpoint.resultPath'],
  ]

  it.each(notEndpoints)('createTask$ and task$ refuse an endpoint that is %s, naming the field', async (_, endpoint, field) => {
    for (const call of [(c: Client) => createTask$(c, endpoint as TaskEndpoint, { prompt: 'p' }), (c: Client) => task$(c, endpoint as TaskEndpoint, ID)]) {
      const { gw, o } = run(call, gateway())
      const { error } = await o.done
      expect(error).toMatchObject({ name: 'InvalidRequestError' })
      expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(field)
      expect(gw.requests).toHaveLength(0)
    }
  })

  it('says what an endpoint must be', async () => {
    const { error } = await run((c) => task$(c, null as never, ID), gateway()).o.done
    expect((error as Error).message).toBe('Invalid request: endpoint: must be a task endpoint, such as endpoints.t2vSpark or one made by taskEndpoint() (got null). Nothing was sent.')
    const { error: noResult } = await run((c) => createTask$(c, { name: 'app/x', kind: 'image', createPath: '/x/generation' } as never, {}), gateway()).o.done
    expect((noResult as Error).message).toBe('Invalid request: endpoint.resultPath: is required. Nothing was sent.')
    const { error: relative } = await run((c) => task$(c, { name: 'app/x', kind: 'image', resultPath: 'x/generation' }, ID), gateway()).o.done
    expect((relative as Error).message).toBe('Invalid request: endpoint.resultPath: must be a path of segments, such as /vendors/vendor-b/v1/t2v-spark/generation. Nothing was sent.')
  })

  it('createTask$ refuses a body of null, a number or text, saying it must be an object', async () => {
    for (const body of [null, 5, 'prompt']) {
      const { gw, o } = run((c) => createTask$(c, endpoints.i2iPreview, body as never), gateway())
      expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: '', message: 'must be an object' }] })
      expect(gw.requests).toHaveLength(0)
    }
  })

  it('textToVideo$ refuses a body of null, saying it must be an object', async () => {
    const { gw, o } = run((c) => textToVideo$(c, null as never), gateway())
    expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: '', message: 'must be an object' }] })
    expect(gw.requests).toHaveLength(0)
  })

  it('takes null options as no options: textToVideo$, createTask$ and task$ create and follow as usual', async () => {
    for (const call of [
      (c: Client) => textToVideo$(c, { prompt: 'p' }, null as never),
      (c: Client) => createTask$(c, endpoints.t2vSpark, { prompt: 'p' }, null as never),
      (c: Client) => task$(c, endpoints.t2vSpark, ID, null as never),
    ]) {
      const { values, error } = await run(call, gateway([], ['completed'])).o.done
      expect(error).toBeUndefined()
      expect(types(values).at(-1)).toBe('completed')
    }
  })

  it('refuses a NaN or Infinity anywhere in a body, naming its path, instead of sending it as null', async () => {
    const cases: [(c: Client) => import('rxjs').Observable<TaskEvent>, string, string][] = [
      [t2v({ prompt: 'p', seed: Number.NaN }), 'seed', 'NaN'],
      [(c) => createTask$(c, endpoints.i2iPreview, { prompt: 'p', extra: { weights: [1, Number.POSITIVE_INFINITY] } }), 'extra.weights.1', 'Infinity'],
      [(c) => createTask$(c, endpoints.i2iPreview, { prompt: 'p', strength: Number.NEGATIVE_INFINITY }), 'strength', '-Infinity'],
    ]
    for (const [call, path, shown] of cases) {
      const { gw, o } = run(call, gateway())
      expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path, message: `must be a finite number (got ${shown})` }] })
      expect(gw.requests).toHaveLength(0)
    }
  })
})
