import { take } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import { ConnectionError } from '../src/errors/ConnectionError.js'
import { HttpError } from '../src/errors/HttpError.js'
import { InvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { ResponseFailedError } from '../src/errors/ResponseFailedError.js'
import { TimeoutError } from '../src/errors/TimeoutError.js'
import { ValidationError } from '../src/errors/ValidationError.js'
import { outputText } from '../src/operators/outputText.js'
import { cancelResponse$, responses$, retrieveResponse$ } from '../src/responses$.js'
import type { ResponseRequest } from '../src/validation/responseRequest.js'
import type { ResponseStreamEvent } from '../src/validation/streamEvents.js'
import { fakeClient, inTurn, onClock, type TestClientOptions } from './helpers/client.js'
import { settle } from './helpers/clock.js'
import { observe } from './helpers/collect.js'
import { json, networkError, never, sse, type Answer, type SeenRequest } from './helpers/fakeTransport.js'
import { delta, frame, KEY, lifecycle, response } from './helpers/fixtures.js'
import { expectNoKeyFragment, renderings } from './helpers/secrets.js'

// A loop that never ends is the failure these tests look for: fail it fast.
vi.setConfig({ testTimeout: 5_000 })

const RESPONSES = '/vendors/vendor-a/v1/responses'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const seqs = (events: unknown[]) => (events as ResponseStreamEvent[]).map((e) => e.sequence_number)
const http = (status: number, body: unknown = { error: { message: `failure ${status}` } }, headers: Record<string, string> = {}) => json(body, status, headers)
const quota = { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }

/** created(0), one delta per letter of `text` (1..n), completed(n+1), for response `id`. */
function eventsOf(text: string, id = 'resp_bg'): Record<string, unknown>[] {
  return [
    lifecycle('response.created', 0, { id, status: 'queued' }),
    ...[...text].map((c, i) => delta(i + 1, c)),
    lifecycle('response.completed', text.length + 1, { id, output_text: text }),
  ]
}
const frames = (events: Record<string, unknown>[]) => events.map((e) => frame(e)).join('')

function run<T>(call: (c: ReturnType<typeof fakeClient>['client']) => import('rxjs').Observable<T>, answer: Answer, options: TestClientOptions = {}) {
  const setup = fakeClient(answer, options)
  return { ...setup, o: onClock(setup.clock, observe(call(setup.client))) }
}

const create = (body: ResponseRequest = { model: 'm', input: 'hi' }) => (c: ReturnType<typeof fakeClient>['client']) => responses$(c, body)

describe('responses$: creating a response', () => {
  it('POSTs the body as JSON with the bearer token and an Idempotency-Key, emits the one validated Response, then completes', async () => {
    const { gw, o } = run(create({ model: 'm', input: 'Héllo 🚀', temperature: 0.5 }), () => json(response({ extra_field: { kept: true } })))
    expect(await o.done).toEqual({ values: [response({ extra_field: { kept: true } })], error: undefined, completed: true })
    expect(gw.requests).toHaveLength(1)
    const req = gw.request(1)
    expect(req).toMatchObject({ method: 'POST', path: RESPONSES, json: { model: 'm', input: 'Héllo 🚀', temperature: 0.5 } })
    expect(req.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json' })
    expect(req.headers['idempotency-key']).toMatch(UUID)
  })

  it('is cold: nothing is sent until subscribed, and each subscription sends anew with a fresh Idempotency-Key', async () => {
    const { gw, client } = fakeClient(() => json(response()))
    const once$ = responses$(client, { model: 'm' })
    await settle()
    expect(gw.requests).toHaveLength(0)
    await observe(once$).done
    await observe(once$).done
    expect(gw.requests).toHaveLength(2)
    expect(gw.request(1).headers['idempotency-key']).not.toBe(gw.request(2).headers['idempotency-key'])
  })

  it('sends the caller’s own Idempotency-Key', async () => {
    const { gw, client } = fakeClient(() => json(response()))
    await observe(responses$(client, { model: 'm' }, { idempotencyKey: 'my-key-1' })).done
    expect(gw.request(1).headers['idempotency-key']).toBe('my-key-1')
  })

  it('refuses an Idempotency-Key that cannot be a header value, sending nothing', async () => {
    const { gw, client } = fakeClient(() => json(response()))
    const { error } = await observe(responses$(client, { model: 'm' }, { idempotencyKey: 'two\nlines' })).done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues.map((i) => i.path)).toEqual(['idempotencyKey'])
    expect(gw.requests).toHaveLength(0)
  })

  it.each([
    ['a refused connection', networkError('ECONNREFUSED')],
    ['a host not found', networkError('ENOTFOUND')],
    ['a 429 rate limit', http(429)],
    ['a 503', http(503)],
  ])('sends again after %s (it never arrived), with the same body and Idempotency-Key', async (_, failure) => {
    const { gw, o } = run(create(), inTurn(failure, json(response())), { retry: { baseDelayMs: 0 } })
    expect((await o.done).values).toHaveLength(1)
    expect(gw.requests).toHaveLength(2)
    expect(gw.request(2).body).toBe(gw.request(1).body)
    expect(gw.request(2).headers['idempotency-key']).toBe(gw.request(1).headers['idempotency-key'])
  })

  it.each([
    ['a 500', http(500), { name: 'HttpError', status: 500 }],
    ['a 502', http(502), { name: 'HttpError', status: 502 }],
    ['a 504', http(504), { name: 'HttpError', status: 504 }],
    ['a 408', http(408), { name: 'HttpError', status: 408 }],
    ['a reset after sending', networkError('ECONNRESET'), { name: 'ConnectionError', sent: true }],
    ['a reply that is not JSON', { status: 200, body: '{"id":' }, { name: 'ValidationError' }],
  ])('never sends again after %s: the gateway may have made the response', async (_, failure, error) => {
    const { gw, o } = run(create(), inTurn(failure, json(response())), { retry: { baseDelayMs: 0 } })
    expect((await o.done).error).toMatchObject(error)
    expect(gw.requests).toHaveLength(1)
  })

  it('with idempotentCreate, sends again after a 500 with the same Idempotency-Key', async () => {
    const { gw, o } = run(create(), inTurn(http(500), json(response())), { retry: { baseDelayMs: 0 }, idempotentCreate: true })
    expect((await o.done).values).toHaveLength(1)
    expect(gw.requests.map((r) => r.headers['idempotency-key'])).toEqual([gw.request(1).headers['idempotency-key'], gw.request(1).headers['idempotency-key']])
  })

  it('with idempotentCreate, rides out 503s after a reset past retry.count, and keeps to it when nothing may have arrived', async () => {
    const after = run(create(), inTurn(networkError('ECONNRESET'), http(503), http(503), json(response())), { retry: { count: 1, baseDelayMs: 0 }, idempotentCreate: true })
    expect((await after.o.done).values).toHaveLength(1)
    expect(new Set(after.gw.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1)
    expect(after.gw.requests).toHaveLength(4)
    const only = run(create(), inTurn(http(503), http(503), json(response())), { retry: { count: 1, baseDelayMs: 0 }, idempotentCreate: true })
    expect((await only.o.done).error).toMatchObject({ name: 'HttpError', status: 503 })
    expect(only.gw.requests).toHaveLength(2)
  })

  it('never sends again after a 429 insufficient_quota: the HttpError says it is permanent', async () => {
    const { gw, o } = run(create(), inTurn(http(429, quota), json(response())), { retry: { baseDelayMs: 0 } })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 429, permanent: true, code: 'insufficient_quota' })
    expect(gw.requests).toHaveLength(1)
  })

  it('waits exactly the Retry-After of a 429 on the client’s clock before sending again', async () => {
    const { gw, clock, o } = run(create(), inTurn(http(429, {}, { 'retry-after': '2' }), json(response())))
    await settle()
    expect(clock.pendingDelays).toEqual([2_000])
    await clock.run(1_999)
    expect(gw.requests).toHaveLength(1)
    await clock.run(1)
    expect((await o.done).values).toHaveLength(1)
    expect(gw.requests).toHaveLength(2)
  })

  it('does not wait out a Retry-After above maxRetryAfterMs: the HttpError comes at once, no timer left', async () => {
    const { gw, clock, o } = run(create(), () => http(429, {}, { 'retry-after': '3600' }), { retry: { maxRetryAfterMs: 60_000 } })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 429, retryAfterMs: 3_600_000 })
    expect(gw.requests).toHaveLength(1)
    expect(clock.pending).toBe(0)
  })

  it('gives up after `count` retries with the last error', async () => {
    const { gw, o } = run(create(), () => http(503), { retry: { count: 2, baseDelayMs: 0 } })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 503 })
    expect(gw.requests).toHaveLength(3)
  })

  it.each([400, 401, 403, 404, 409, 422])('does not send again after %i', async (status) => {
    const { gw, o } = run(create(), () => http(status))
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status })
    expect(gw.requests).toHaveLength(1)
  })

  it('ends a failed Response in ResponseFailedError with its id, code, message and the Response', async () => {
    const failed = response({ id: 'resp_f', status: 'failed', error: { code: 'server_error', message: 'The model crashed' } })
    const { o } = run(create(), () => json(failed))
    const { values, error } = await o.done
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(ResponseFailedError)
    expect(error).toMatchObject({ responseId: 'resp_f', code: 'server_error', response: failed, message: 'Response resp_f failed [server_error]: The model crashed' })
  })

  it('ends a Response of the wrong shape in ValidationError naming the field, with the payload', async () => {
    const payload = response({ status: 'exploded' })
    const { o } = run(create(), () => json(payload))
    const { error } = await o.done
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: 'status' }], payload })
  })

  it('ends a reply nested 5,000 deep in ValidationError, never a RangeError, and the error logs without throwing', async () => {
    const deep = `{"id":"r","object":"response","created_at":1,"model":"m","status":"completed","output":${'['.repeat(5_000)}${']'.repeat(5_000)}}`
    const { o } = run(create(), () => json(deep))
    const { error } = await o.done
    expect(error).toBeInstanceOf(ValidationError)
    expect(() => renderings(error)).not.toThrow()
    expectNoKeyFragment(error)
  })

  it.each([
    ['a BigInt', { model: 'm', max_output_tokens: 10n }],
    ['a cycle', (() => { const b: Record<string, unknown> = { model: 'm' }; b.self = b; return b })()],
    ['an inherited toJSON sending something else', Object.assign(Object.create({ toJSON: () => ({ model: 'm', temperature: 9 }) }), { model: 'm' })],
    ['metadata with a __proto__ key that is not a string', JSON.parse('{"model":"m","metadata":{"__proto__":5}}')],
    ['a sparse tool list', { model: 'm', tools: [, { type: 'web_search' }] }],
    ['a temperature of 3', { model: 'm', temperature: 3 }],
  ])('refuses %s with InvalidRequestError at subscription, sending nothing', async (_, body) => {
    const { gw, client } = fakeClient(() => json(response()))
    const call$ = responses$(client, body as ResponseRequest)
    const { error } = await observe(call$).done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toMatch(/Nothing was sent\.$/)
    expect(gw.requests).toHaveLength(0)
  })

  it.each([
    ['a NaN temperature', { model: 'm', input: 'hi', temperature: Number.NaN }, 'temperature', 'NaN'],
    ['an Infinity top_p in a streamed background call', { model: 'm', input: 'hi', stream: true, background: true, top_p: Number.POSITIVE_INFINITY }, 'top_p', 'Infinity'],
    ['a -Infinity deep in a tool’s parameters', { model: 'm', tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: { x: { type: 'number', maximum: Number.NEGATIVE_INFINITY } } } }] }, 'tools.0.parameters.properties.x.maximum', '-Infinity'],
    ['a NaN in a message of the input', { model: 'm', background: true, input: [{ role: 'user', content: 'hi', weight: Number.NaN }] }, 'input.0.weight', 'NaN'],
  ])('refuses %s (JSON would send it as null) with InvalidRequestError naming the field, sending nothing', async (_, body, path, shown) => {
    const { gw, client } = fakeClient(() => json(response()))
    const { error } = await observe(responses$(client, body as ResponseRequest)).done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues).toEqual([{ path, message: `must be a finite number (got ${shown})` }])
    expect((error as Error).message).toBe(`Invalid response request: ${path}: must be a finite number (got ${shown}). Nothing was sent.`)
    expect(gw.requests).toHaveLength(0)
  })

  it('takes null options (plain JavaScript) as no options: sends with a fresh Idempotency-Key', async () => {
    const { gw, o } = run((c) => responses$(c, { model: 'm', input: 'hi' }, null as never), () => json(response()))
    expect(await o.done).toMatchObject({ error: undefined, completed: true })
    expect(gw.request(1).headers['idempotency-key']).toMatch(UUID)
  })

  it('ends a call past its deadlineMs in TimeoutError (deadline), cutting a long Retry-After wait; no second request', async () => {
    const { gw, clock, client } = fakeClient(inTurn(http(429, {}, { 'retry-after': '30' }), json(response())), { retry: { maxRetryAfterMs: 60_000 } })
    const call = observe(responses$(client, { model: 'm' }, { deadlineMs: 5_000 }))
    await clock.run(4_999)
    expect(call.error).toBeUndefined()
    await clock.run(1)
    expect((await call.done).error).toMatchObject({ name: 'TimeoutError', reason: 'deadline', timeoutMs: 5_000 })
    expect(gw.requests).toHaveLength(1)
    expect(clock.pending).toBe(0)
  })

  it('refuses a deadlineMs no timer can hold, sending nothing', async () => {
    const { gw, client } = fakeClient(() => json(response()))
    expect((await observe(responses$(client, { model: 'm' }, { deadlineMs: 2 ** 31 })).done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'deadlineMs' }] })
    expect(gw.requests).toHaveLength(0)
  })

  it('unsubscribed before the reply: aborts the request and leaves no timer', async () => {
    const { gw, clock, o } = run(create(), () => never())
    await settle()
    o.subscription.unsubscribe()
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })

  it('unsubscribed while waiting to retry: clears the wait, and no retry is sent', async () => {
    const { gw, clock, o } = run(create(), () => http(503), { retry: { baseDelayMs: 1_000 } })
    await settle()
    expect(clock.pending).toBe(1)
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    await clock.run(60_000)
    expect(gw.requests).toHaveLength(1)
  })
})

describe('responses$ with stream: true', () => {
  const streamOf = (body: ResponseRequest = { model: 'm', stream: true }) => (c: ReturnType<typeof fakeClient>['client']) => responses$(c, body)

  it('POSTs with an Idempotency-Key, emits the validated events in order, unknown types included, completes at response.completed, and reads the body to its end', async () => {
    const future = { type: 'response.future_thing.delta', sequence_number: 2, payload: { deep: [1, 'x'] } }
    const events = [lifecycle('response.created', 0), delta(1, 'Hel'), future, delta(3, 'lo'), lifecycle('response.completed', 4, { output_text: 'Hello' })]
    const { gw, clock, o } = run(streamOf(), () => sse(frames(events) + 'data: [DONE]\n\n'))
    expect(await o.done).toEqual({ values: events, error: undefined, completed: true })
    expect(gw.request(1).headers.accept).toBe('text/event-stream')
    expect(gw.request(1).headers['idempotency-key']).toMatch(UUID)
    expect(gw.request(1).json).toEqual({ model: 'm', stream: true })
    await settle()
    expect(gw.request(1)).toMatchObject({ readToEnd: true, aborted: false })
    expect(clock.pending).toBe(0)
  })

  it('emits response.incomplete as a value and completes', async () => {
    const { o } = run(streamOf(), () => sse(frames([delta(0, 'a'), lifecycle('response.incomplete', 1, { incomplete_details: { reason: 'max_output_tokens' } })])))
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(values.map((e) => String(e.type))).toEqual(['response.output_text.delta', 'response.incomplete'])
  })

  it('ends a response.failed event in ResponseFailedError with code, message and the Response', async () => {
    const failed = lifecycle('response.failed', 2, { id: 'resp_x', error: { code: 'rate_limit_exceeded', message: 'Too busy' } })
    const { o } = run(streamOf(), () => sse(frames([lifecycle('response.created', 0, { id: 'resp_x' }), delta(1, 'a'), failed])))
    const { values, error } = await o.done
    expect(values).toHaveLength(2)
    expect(error).toBeInstanceOf(ResponseFailedError)
    expect(error).toMatchObject({ code: 'rate_limit_exceeded', responseId: 'resp_x', response: failed.response, message: 'Response resp_x failed [rate_limit_exceeded]: Too busy' })
  })

  it.each([
    ['flat', { type: 'error', sequence_number: 2, code: 'server_error', message: 'Overloaded', param: null }],
    ['nested', { type: 'error', sequence_number: 2, error: { type: 'server_error', code: 'server_error', message: 'Overloaded', param: null } }],
  ])('ends a %s error event in ResponseFailedError with its code and message', async (_, errorEvent) => {
    const { o } = run(streamOf(), () => sse(frames([lifecycle('response.created', 0, { id: 'resp_e' }), delta(1, 'a'), errorEvent])))
    const { values, error } = await o.done
    expect(values).toHaveLength(2)
    expect(error).toMatchObject({ name: 'ResponseFailedError', code: 'server_error', responseId: 'resp_e', message: 'Response resp_e failed [server_error]: Overloaded' })
  })

  it('ends an event that breaks its schema in ValidationError with the path and payload, and aborts', async () => {
    const bad = { ...delta(1, 'x'), delta: 42 }
    const { gw, o } = run(streamOf(), () => sse(frames([lifecycle('response.created', 0), bad, lifecycle('response.completed', 2)])))
    const { values, error } = await o.done
    expect(values).toHaveLength(1)
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: 'delta' }], payload: bad })
    expect(gw.request(1).aborted).toBe(true)
  })

  it('sends a stream creation refused with 429 again: the same POST, body and Idempotency-Key', async () => {
    const events = frames([lifecycle('response.created', 0), delta(1, 'ok'), lifecycle('response.completed', 2)])
    const { gw, o } = run(streamOf(), inTurn(http(429), sse(events)), { retry: { baseDelayMs: 0 } })
    const { values, error } = await o.done
    expect(error).toBeUndefined()
    expect(seqs(values)).toEqual([0, 1, 2])
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${RESPONSES}`, `POST ${RESPONSES}`])
    expect(gw.request(2).body).toBe(gw.request(1).body)
    expect(gw.request(2).headers['idempotency-key']).toBe(gw.request(1).headers['idempotency-key'])
  })

  it('ends a stream that is not a background response and closes cleanly mid-event in ConnectionError, without resuming', async () => {
    const { gw, o } = run(streamOf(), () => sse(frames([lifecycle('response.created', 0, { id: 'resp_1' }), delta(1, 'a')]) + 'event: response.output_text.delta\ndata: {"type":"response.output_t'))
    const { values, error } = await o.done
    expect(seqs(values)).toEqual([0, 1])
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).not.toBeInstanceOf(ValidationError)
    expect(gw.requests).toHaveLength(1)
  })

  it('ends a stream of pings in TimeoutError timeoutMs after its last event, and aborts it', async () => {
    const { gw, clock, o } = run(streamOf(), () => sse('fed'), { timeoutMs: 1_000 })
    await settle()
    const body = gw.request(1).fed!
    body.push(frame(lifecycle('response.created', 0)))
    while (o.error === undefined && clock.now() < 5_000) {
      await clock.run(100)
      body.push(': ping\n\n')
    }
    expect(o.error).toMatchObject({ name: 'TimeoutError', reason: 'silence', timeoutMs: 1_000 })
    expect(clock.now()).toBe(1_000)
    expect(gw.request(1).aborted).toBe(true)
  })

  it('ends a stream still running at its deadlineMs in TimeoutError (deadline), though events keep coming, and aborts it', async () => {
    const { gw, clock, client } = fakeClient(() => sse('fed'), { timeoutMs: 1_000 })
    const o = observe(responses$(client, { model: 'm', stream: true }, { deadlineMs: 3_000 }))
    await settle()
    const body = gw.request(1).fed!
    for (let i = 0; i < 5; i++) {
      body.push(frame(delta(i, 'x')))
      await clock.run(700)
    }
    const { values, error } = await o.done
    expect(values).toHaveLength(5)
    expect(error).toMatchObject({ name: 'TimeoutError', reason: 'deadline', timeoutMs: 3_000 })
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })

  it('unsubscribed mid-stream (take): aborts the request and leaves no timer', async () => {
    const { gw, clock, client } = fakeClient(() => sse('fed'))
    const o = observe(responses$(client, { model: 'm', stream: true }).pipe(take(2)))
    await settle()
    gw.request(1).fed!.push(frames([lifecycle('response.created', 0), delta(1, 'a')]))
    expect((await o.done).values).toHaveLength(2)
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })
})

describe('responses$ with stream and background: resuming', () => {
  /**
   * A resumable gateway: the POST sends `first` (text), then drops as `drop`
   * says; each GET ?starting_after=N is answered by `replay(N, n)`.
   */
  function resumable(first: string, drop: 'reset' | 'clean', replay: (after: number | undefined, n: number, req: SeenRequest) => string | Error) {
    let gets = 0
    return (req: SeenRequest) => {
      if (req.method === 'POST') return sse(drop === 'reset' ? (function* () { yield first; throw networkError('ECONNRESET') })() : first)
      const after = new URL(req.url).searchParams.get('starting_after')
      const out = replay(after === null ? undefined : Number(after), ++gets, req)
      return out instanceof Error ? out : sse(out)
    }
  }
  const bg = (c: ReturnType<typeof fakeClient>['client']) => responses$(c, { model: 'm', stream: true, background: true })
  const after = (all: Record<string, unknown>[], n: number) => all.filter((e) => (e.sequence_number as number) > n)

  it('resumes a reset with GET ?stream=true&starting_after=<last seen>: nothing lost, nothing twice', async () => {
    const all = eventsOf('abcdef')
    const { gw, o } = run((c) => bg(c).pipe(outputText()), resumable(frames(all.slice(0, 4)), 'reset', (n) => frames(after(all, n!))), { retry: { baseDelayMs: 0 } })
    expect(await o.done).toMatchObject({ values: ['abcdef'], completed: true })
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${RESPONSES}`, `GET ${RESPONSES}/resp_bg?stream=true&starting_after=3`])
  })

  it('resumes a stream that closed cleanly in the middle of an event, discarding the partial event', async () => {
    const all = eventsOf('abcdef')
    const cut = frame(all[4]!).slice(0, 40)
    const { gw, o } = run(bg, resumable(frames(all.slice(0, 4)) + cut, 'clean', (n) => frames(after(all, n!))), { retry: { baseDelayMs: 0 } })
    const { values, error } = await o.done
    expect(error).toBeUndefined()
    expect(seqs(values)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(gw.request(2).path).toBe(`${RESPONSES}/resp_bg?stream=true&starting_after=3`)
  })

  it('resumes a stream that ended cleanly between events before the response finished', async () => {
    const all = eventsOf('abc')
    const { gw, o } = run((c) => bg(c).pipe(outputText()), resumable(frames(all.slice(0, 2)), 'clean', (n) => frames(after(all, n!))), { retry: { baseDelayMs: 0 } })
    expect((await o.done).values).toEqual(['abc'])
    expect(gw.requests).toHaveLength(2)
  })

  it('emits each event once and in order when the replay repeats events already delivered', async () => {
    const all = eventsOf('abcdef')
    const { o } = run(bg, resumable(frames(all.slice(0, 4)), 'reset', () => frames(all)), { retry: { baseDelayMs: 0 } })
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(seqs(values)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it('resumes again after each drop, each time from the last event delivered', async () => {
    const all = eventsOf('abcdefghij')
    const { gw, o } = run(
      bg,
      resumable(frames(all.slice(0, 3)), 'reset', (n, k) => (k < 3 ? frames(all.filter((e) => (e.sequence_number as number) >= n! - 1 && (e.sequence_number as number) <= n! + 3)) : frames(after(all, n!)))),
      { retry: { baseDelayMs: 0 }, resumeAttempts: 1 },
    )
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(seqs(values)).toEqual(seqs(all))
    expect(gw.requests.slice(1).map((r) => new URL(r.url).searchParams.get('starting_after'))).toEqual(['2', '5', '8'])
  })

  it('gives up after resumeAttempts reconnections in a row that bring nothing, with ConnectionError', async () => {
    const all = eventsOf('abcdef')
    const { gw, o } = run(bg, resumable(frames(all.slice(0, 3)), 'reset', () => ''), { retry: { baseDelayMs: 0 }, resumeAttempts: 2 })
    const { values, error } = await o.done
    expect(seqs(values)).toEqual([0, 1, 2])
    expect(error).toBeInstanceOf(ConnectionError)
    expect(gw.requests.filter((r) => r.method === 'GET')).toHaveLength(2)
  })

  it('counts reconnections that only repeat events already delivered as bringing nothing', async () => {
    const all = eventsOf('abcdef')
    const { gw, clock, o } = run(bg, resumable(frames(all.slice(0, 3)), 'reset', () => frames(all.slice(0, 3))), { retry: { baseDelayMs: 0 }, resumeAttempts: 2 })
    await clock.run(1_000)
    expect(o.error).toBeInstanceOf(ConnectionError)
    expect(seqs(o.values)).toEqual([0, 1, 2])
    expect(gw.requests.filter((r) => r.method === 'GET')).toHaveLength(2)
  })

  it('does not resume a stream whose events carry no sequence numbers (a replay could not be told from new events)', async () => {
    const unnumbered = eventsOf('abc').map(({ sequence_number: _, ...e }) => e)
    const { gw, o } = run(bg, resumable(frames(unnumbered.slice(0, 3)), 'reset', () => frames(unnumbered)), { retry: { baseDelayMs: 0 } })
    const { values, error } = await o.done
    expect(values).toHaveLength(3)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(gw.requests).toHaveLength(1)
  })

  it('waits a jittered retry delay on the client’s clock before resuming', async () => {
    const all = eventsOf('ab')
    const { gw, clock, o } = run(bg, resumable(frames(all.slice(0, 2)), 'reset', (n) => frames(after(all, n!))), { retry: { baseDelayMs: 1_000 } })
    await settle()
    expect(gw.requests).toHaveLength(1)
    const [wait] = clock.pendingDelays
    expect(wait).toBeLessThan(1_000)
    await clock.run(wait!)
    expect((await o.done).completed).toBe(true)
    expect(gw.requests).toHaveLength(2)
  })

  it('unsubscribed while waiting to resume: clears the wait, and no replay is requested', async () => {
    const all = eventsOf('ab')
    const { gw, clock, o } = run(bg, resumable(frames(all.slice(0, 2)), 'reset', (n) => frames(after(all, n!))), { retry: { baseDelayMs: 1_000 } })
    await settle()
    expect(clock.pending).toBe(1)
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    await clock.run(60_000)
    expect(gw.requests).toHaveLength(1)
  })

  it('unsubscribed during a replay: aborts the replay request', async () => {
    const all = eventsOf('abcd')
    const { gw, clock, o } = run(bg, (req) => (req.method === 'POST' ? sse((function* () { yield frames(all.slice(0, 2)); throw networkError('ECONNRESET') })()) : sse('fed')), { retry: { baseDelayMs: 0 } })
    await clock.run(0)
    gw.request(2).fed!.push(frame(all[2]!))
    await settle()
    expect(seqs(o.values)).toEqual([0, 1, 2])
    o.subscription.unsubscribe()
    expect(gw.request(2).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })
})

describe('responses$ with background: polling', () => {
  /** Answers the POST with `first`, then each GET with the next status of `polls`. */
  function polling(first: string, polls: (string | ReturnType<Answer>)[], failed: Record<string, unknown> = {}): Answer {
    let n = 0
    return (req) => {
      if (req.method === 'POST') return json(response({ id: 'resp_bg', status: first, output_text: null }))
      const next = polls[Math.min(n++, polls.length - 1)]!
      if (typeof next !== 'string') return next
      return json(response({ id: 'resp_bg', status: next, output_text: next === 'completed' ? 'Done' : null, ...(next === 'failed' ? failed : {}) }))
    }
  }
  const bg = (c: ReturnType<typeof fakeClient>['client']) => responses$(c, { model: 'm', background: true, store: true })
  const fast = { responsePoll: { initialDelayMs: 10, jitter: 0 }, retry: { baseDelayMs: 0 } }

  it('POSTs with an Idempotency-Key, emits the first snapshot, then each status change, polling GET {responsesPath}/{id} until a final status', async () => {
    const { gw, clock, o } = run(bg, polling('queued', ['queued', 'in_progress', 'in_progress', 'completed']), fast)
    await clock.runAll()
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(values.map((r) => r.status)).toEqual(['queued', 'in_progress', 'completed'])
    expect(values.at(-1)).toMatchObject({ output_text: 'Done' })
    expect(gw.request(1)).toMatchObject({ method: 'POST', json: { model: 'm', background: true, store: true } })
    expect(gw.request(1).headers['idempotency-key']).toMatch(UUID)
    expect(gw.requests.slice(1).map((r) => `${r.method} ${r.path}`)).toEqual(Array(4).fill(`GET ${RESPONSES}/resp_bg`))
  })

  it('waits initialDelayMs, then longer by factor, up to maxDelayMs, between polls', async () => {
    const { gw, clock } = run(bg, polling('queued', ['queued', 'queued', 'queued', 'completed']), { responsePoll: { initialDelayMs: 1_000, factor: 2, maxDelayMs: 3_000, jitter: 0 } })
    const times: number[] = []
    for (let i = 0; i < 4; i++) {
      await settle()
      times.push(clock.pendingDelays[0]!)
      await clock.run(clock.pendingDelays[0]!)
    }
    expect(times).toEqual([1_000, 2_000, 3_000, 3_000])
    expect(gw.requests).toHaveLength(5)
  })

  it('does not poll when the first snapshot is final', async () => {
    const { gw, clock, o } = run(bg, polling('completed', []), fast)
    expect((await o.done).values.map((r) => r.status)).toEqual(['completed'])
    expect(gw.requests).toHaveLength(1)
    expect(clock.pending).toBe(0)
  })

  it.each(['incomplete', 'cancelled'])('stops at %s, emitting it as a value', async (status) => {
    const { clock, o } = run(bg, polling('queued', ['in_progress', status]), fast)
    await clock.runAll()
    expect(await o.done).toMatchObject({ completed: true })
    expect(o.values.map((r) => r.status)).toEqual(['queued', 'in_progress', status])
  })

  it('ends in ResponseFailedError when the response fails', async () => {
    const { clock, o } = run(bg, polling('queued', ['in_progress', 'failed'], { error: { code: 'server_error', message: 'Upstream died' } }), fast)
    await clock.runAll()
    const { values, error } = await o.done
    expect(values.map((r) => r.status)).toEqual(['queued', 'in_progress'])
    expect(error).toMatchObject({ name: 'ResponseFailedError', code: 'server_error', responseId: 'resp_bg' })
  })

  it.each([
    ['a 503', http(503)],
    ['a reset', networkError('ECONNRESET')],
    ['a reply that is not JSON', { status: 200, body: 'oops' }],
    ['an HTML page', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html></html>' }],
    ['a snapshot of another response', json(response({ id: 'resp_other', status: 'completed' }))],
  ])('retries a poll that failed with %s and keeps polling', async (_, failure) => {
    const { gw, clock, o } = run(bg, polling('queued', [failure, 'completed']), fast)
    await clock.runAll()
    const { values, error } = await o.done
    expect(error).toBeUndefined()
    expect(values.map((r) => [r.id, r.status])).toEqual([
      ['resp_bg', 'queued'],
      ['resp_bg', 'completed'],
    ])
    expect(gw.requests).toHaveLength(3)
  })

  it('sends a creation refused with 503 again with the same Idempotency-Key', async () => {
    let posts = 0
    const answer = polling('completed', [])
    const { gw, o } = run(bg, (req) => (req.method === 'POST' && ++posts === 1 ? http(503) : answer(req)), fast)
    await o.done
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${RESPONSES}`, `POST ${RESPONSES}`])
    expect(gw.request(2).headers['idempotency-key']).toBe(gw.request(1).headers['idempotency-key'])
    expect(o.values.map((r) => r.status)).toEqual(['completed'])
  })

  it('unsubscribed while waiting to poll: clears the wait, and no poll is sent', async () => {
    const { gw, clock, o } = run(bg, polling('queued', ['completed']), { responsePoll: { initialDelayMs: 5_000, jitter: 0 } })
    await settle()
    expect(clock.pendingDelays).toEqual([5_000])
    o.subscription.unsubscribe()
    expect(clock.pending).toBe(0)
    await clock.run(60_000)
    expect(gw.requests).toHaveLength(1)
  })

  it('unsubscribed during a poll: aborts the poll request', async () => {
    const { gw, clock, o } = run(bg, (req) => (req.method === 'POST' ? json(response({ id: 'resp_bg', status: 'queued' })) : never()), fast)
    await clock.run(10)
    expect(gw.request(2).method).toBe('GET')
    o.subscription.unsubscribe()
    expect(gw.request(2).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })
})

describe('retrieveResponse$', () => {
  it('reads one snapshot with a GET, and ends a failed one in ResponseFailedError', async () => {
    const { gw, o } = run((c) => retrieveResponse$(c, 'resp_7'), () => json(response({ id: 'resp_7', status: 'in_progress' })))
    expect(await o.done).toMatchObject({ completed: true, values: [{ id: 'resp_7', status: 'in_progress' }] })
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${RESPONSES}/resp_7`])
    const failed = run((c) => retrieveResponse$(c, 'resp_7'), () => json(response({ id: 'resp_7', status: 'failed', error: { code: 'x', message: 'y' } })))
    expect((await failed.o.done).error).toMatchObject({ name: 'ResponseFailedError', code: 'x', responseId: 'resp_7' })
  })

  it.each([
    ['a 500', http(500)],
    ['a 502', http(502)],
    ['a 408', http(408)],
    ['a reset', networkError('ECONNRESET')],
    ['a timeout', never()],
  ])('retries a read that failed with %s (reading twice changes nothing)', async (_, failure) => {
    const { gw, clock, o } = run((c) => retrieveResponse$(c, 'resp_7'), inTurn(failure as ReturnType<Answer>, json(response({ id: 'resp_7' }))), { retry: { baseDelayMs: 0 }, timeoutMs: 1_000 })
    await clock.run(1_000)
    expect((await o.done).values).toHaveLength(1)
    expect(gw.requests).toHaveLength(2)
  })

  it('streams the events after startingAfter, dropping older ones the server repeats', async () => {
    const all = eventsOf('abcdef', 'resp_7')
    const { gw, o } = run((c) => retrieveResponse$(c, 'resp_7', { stream: true, startingAfter: 4 }), () => sse(frames(all.slice(3))))
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(seqs(values)).toEqual([5, 6, 7])
    expect(gw.request(1).path).toBe(`${RESPONSES}/resp_7?stream=true&starting_after=4`)
  })

  it('streams from the start without startingAfter, and resumes a drop from the last event seen', async () => {
    const all = eventsOf('abcdef', 'resp_7')
    let gets = 0
    const { gw, o } = run(
      (c) => retrieveResponse$(c, 'resp_7', { stream: true }),
      (req) => {
        const after = Number(new URL(req.url).searchParams.get('starting_after') ?? -1)
        const events = all.filter((e) => (e.sequence_number as number) > after)
        return ++gets === 1 ? sse((function* () { yield frames(events.slice(0, 3)); throw networkError('ECONNRESET') })()) : sse(frames(events))
      },
      { retry: { baseDelayMs: 0 } },
    )
    expect(seqs((await o.done).values)).toEqual(seqs(all))
    expect(gw.requests.map((r) => r.path)).toEqual([`${RESPONSES}/resp_7?stream=true`, `${RESPONSES}/resp_7?stream=true&starting_after=2`])
  })

  it.each([-1, 1.5, Number.NaN])('refuses startingAfter %j, sending nothing', async (startingAfter) => {
    const { gw, o } = run((c) => retrieveResponse$(c, 'resp_7', { stream: true, startingAfter }), () => json(response()))
    const { error } = await o.done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toContain('startingAfter')
    expect(gw.requests).toHaveLength(0)
  })

  it('refuses an id that would change the path, sending nothing', async () => {
    for (const id of ['', 'a/b', '../x', '..', 'a?b', 'a#b', 'a b', '%2F']) {
      const { gw, o } = run((c) => retrieveResponse$(c, id), () => json(response()))
      expect((await o.done).error).toMatchObject({ name: 'InvalidRequestError', issues: [{ path: 'id' }] })
      expect(gw.requests).toHaveLength(0)
    }
  })

  it('uses responsesPath', async () => {
    const { gw, o } = run((c) => retrieveResponse$(c, 'resp_9'), () => json(response()), { responsesPath: '/custom/responses' })
    await o.done
    expect(gw.request(1).path).toBe('/custom/responses/resp_9')
  })
})

describe('cancelResponse$', () => {
  it('POSTs to {responsesPath}/{id}/cancel and emits the Response', async () => {
    const { gw, o } = run((c) => cancelResponse$(c, 'resp_7'), () => json(response({ id: 'resp_7', status: 'cancelled' })))
    expect(await o.done).toMatchObject({ completed: true, values: [{ id: 'resp_7', status: 'cancelled' }] })
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${RESPONSES}/resp_7/cancel`])
  })

  it('is retried after a 500 like a read: cancelling twice changes nothing', async () => {
    const { gw, o } = run((c) => cancelResponse$(c, 'resp_7'), inTurn(http(500), json(response({ id: 'resp_7', status: 'cancelled' }))), { retry: { baseDelayMs: 0 } })
    expect((await o.done).values).toHaveLength(1)
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${RESPONSES}/resp_7/cancel`, `POST ${RESPONSES}/resp_7/cancel`])
  })

  it('reports an unknown id as a not_found HttpError', async () => {
    const { o } = run((c) => cancelResponse$(c, 'resp_7'), () => http(404, { error: { message: 'No response with id resp_7', type: 'invalid_request_error', code: null } }))
    expect((await o.done).error).toMatchObject({ name: 'HttpError', kind: 'not_found', gatewayMessage: 'No response with id resp_7' })
    expect((await o.done).error).toBeInstanceOf(HttpError)
  })
})

describe('the key never leaves in an error', () => {
  it.each([
    ['an error body echoing it', () => http(401, { error: { message: `Incorrect API key provided: ${KEY}.`, code: 'invalid_api_key' } })],
    ['an error body echoing it near the 2,000-character cut', () => http(400, { detail: `${'x'.repeat(1_995)}${KEY}` })],
    ['an error body echoing fragments of it', () => http(401, { detail: `key ${KEY.slice(0, 12)}… or …${KEY.slice(-10)}` })],
    ['a payload that fails validation', () => json({ id: 'r', object: 'response', echo: `Bearer ${KEY}` })],
    ['a reply that is not JSON', () => ({ status: 200, body: `debug: Authorization: Bearer ${KEY}` })],
    ['a failed Response', () => json(response({ status: 'failed', error: { code: 'auth', message: `upstream refused ${KEY}` } }))],
    ['a network failure whose message holds it', () => networkError(`ECONNRESET while sending ${KEY}`)],
  ])('%s', async (_, answer) => {
    const { o } = run(create(), answer as Answer, { retry: false })
    const { error } = await o.done
    expect(error).toBeDefined()
    expectNoKeyFragment(error)
  })

  it('in an error event of a stream', async () => {
    const { o } = run((c) => responses$(c, { model: 'm', stream: true }), () => sse(frames([lifecycle('response.created', 0), { type: 'error', sequence_number: 1, code: 'auth', message: `key ${KEY} rejected` }])))
    const { error } = await o.done
    expect(error).toBeInstanceOf(ResponseFailedError)
    expectNoKeyFragment(error)
  })

  it('in a silence timeout', async () => {
    const { clock, o } = run(create(), () => never(), { timeoutMs: 1_000 })
    await clock.run(1_000)
    const { error } = await o.done
    expect(error).toBeInstanceOf(TimeoutError)
    expectNoKeyFragment(error)
  })
})

describe('responses$: the end of a stream', () => {
  const streamed = (c: ReturnType<typeof fakeClient>['client']) => responses$(c, { model: 'm', stream: true })
  it.each([
    ['response.completed', lifecycle('response.completed', 2)],
    ['response.incomplete', lifecycle('response.incomplete', 2)],
    ['response.failed', lifecycle('response.failed', 2, { error: { code: 'server_error', message: 'boom' } })],
    ['an error event', { type: 'error', sequence_number: 2, code: 'server_error', message: 'boom' }],
  ])('reads the body to its end after %s, the last event, rather than aborting it', async (_, last) => {
    const { gw, o } = run(streamed, () => sse(frames([lifecycle('response.created', 0), delta(1, 'a'), last])))
    await o.done
    await settle()
    expect(gw.request(1).aborted).toBe(false)
    expect(gw.request(1).readToEnd).toBe(true)
  })

  it('ends a response.failed event without error details in ResponseFailedError all the same', async () => {
    const { o } = run(streamed, () => sse(frames([lifecycle('response.created', 0, { id: 'resp_f' }), lifecycle('response.failed', 1, { id: 'resp_f', error: null })])))
    const { error } = await o.done
    expect(error).toBeInstanceOf(ResponseFailedError)
    expect(error).toMatchObject({ responseId: 'resp_f', code: undefined })
  })

  it('ends a failed Response without error details in ResponseFailedError all the same', async () => {
    const { o } = run(create(), () => json(response({ id: 'resp_f', status: 'failed', error: null })))
    const { error } = await o.done
    expect(error).toBeInstanceOf(ResponseFailedError)
    expect(error).toMatchObject({ responseId: 'resp_f', code: undefined })
  })
})

describe('responses$ with stream and background: which streams resume', () => {
  const bg = (c: ReturnType<typeof fakeClient>['client']) => responses$(c, { model: 'm', stream: true, background: true })
  const dropping = (events: Record<string, unknown>[]) => sse((function* () { yield frames(events); throw networkError('ECONNRESET') })())

  it.each(['response.queued', 'response.in_progress'])('resumes a stream whose first event, %s, named the response', async (type) => {
    const rest = [delta(1, 'a'), lifecycle('response.completed', 2, { id: 'resp_q' })]
    const { gw, o } = run(bg, (req) => (req.method === 'POST' ? dropping([lifecycle(type, 0, { id: 'resp_q' })]) : sse(frames(rest))), { retry: { baseDelayMs: 0 } })
    const { completed } = await o.done
    expect(completed).toBe(true)
    expect(gw.request(2).path).toBe('/vendors/vendor-a/v1/responses/resp_q?stream=true&starting_after=0')
  })

  it('does not resume a stream that broke before any event named its response (there is nothing to ask for)', async () => {
    const { gw, o } = run(bg, () => dropping([delta(0, 'a')]), { retry: { baseDelayMs: 0 } })
    const { error } = await o.done
    expect(error).toMatchObject({ name: 'ConnectionError' })
    expect(gw.requests).toHaveLength(1)
  })
})

describe('responses$ with background: the rules of its polls', () => {
  const bg = (c: ReturnType<typeof fakeClient>['client']) => responses$(c, { model: 'm', background: true })
  const poll = { responsePoll: { initialDelayMs: 10, jitter: 0 } }
  const snapshot = (status: string, id = 'resp_bg') => json(response({ id, status, output_text: null }))

  it('does not send a creation again after a 500 (its outcome is unknown), as a creation', async () => {
    const { gw, o } = run(bg, () => http(500), { ...poll, retry: { baseDelayMs: 0 } })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 500 })
    expect(gw.requests).toHaveLength(1)
  })

  it('rides out 5 failed polls in a row, more than the client’s retry count', async () => {
    const { gw, o } = run(bg, inTurn(snapshot('queued'), http(503), http(503), http(503), http(503), http(503), snapshot('completed')), { ...poll, retry: { count: 2, baseDelayMs: 0 } })
    expect((await o.done).completed).toBe(true)
    expect(gw.requests).toHaveLength(7)
  })

  it('does not poll again after a failed poll when the client has retry: false', async () => {
    const { gw, o } = run(bg, inTurn(snapshot('queued'), http(503), snapshot('completed')), { ...poll, retry: false })
    expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 503 })
    expect(gw.requests).toHaveLength(2)
  })

  it('ends a poll that returns another response in ValidationError naming both ids', async () => {
    const { o } = run(bg, inTurn(snapshot('queued'), snapshot('queued', 'resp_other')), { ...poll, retry: { baseDelayMs: 0 } })
    const { error } = await o.done
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as Error).message).toBe('Unexpected retrieved response from the gateway: id: is resp_other, not resp_bg.')
    expect(error).toMatchObject({ issues: [{ path: 'id', message: 'is resp_other, not resp_bg' }] })
  })
})

describe('responses$: messages', () => {
  it('names a Response of the wrong shape as the response in the message', async () => {
    const { o } = run(create(), () => json(response({ status: 42 })))
    expect(((await o.done).error as Error).message).toMatch(/^Unexpected response from the gateway: status: /)
  })

  it('says which call missed its deadline', async () => {
    const { clock, o } = run((c) => responses$(c, { model: 'm' }, { deadlineMs: 1_000 }), () => never())
    await clock.run(1_000)
    expect((o.error as Error).message).toBe('call /vendors/vendor-a/v1/responses: not finished within its deadline of 1000 ms; the request was aborted. Raise deadlineMs to allow longer.')
  })

  it('refuses to cancel an id that would change the path, naming the id, sending nothing', async () => {
    const { gw, o } = run((c) => cancelResponse$(c, '../x'), () => json(response()))
    const { error } = await o.done
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues.map((i) => i.path)).toEqual(['id'])
    expect(gw.requests).toHaveLength(0)
  })
})
