import { catchError, map, of } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { isTaskFailedError, outputText, responses$, textDeltas, textToVideo$ } from '../../src/index.js'
import { createTestGateway } from '../../src/testing/index.js'

// What a user writes to test their own rxgate code: every reply, stream
// event, task status and retry wait in virtual time, no real timer.
const virtual = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))

describe('createTestGateway in virtual time', () => {
  it('follows a text-to-video task from created through pending and processing to completed, at the times the model gives', () => {
    const testScheduler = virtual()
    testScheduler.run(({ expectObservable }) => {
      const { client } = createTestGateway({ scheduler: testScheduler, task: () => ({ timing: { pendingMs: 15_000, processingMs: 20_000 } }) })
      const types$ = textToVideo$(client, { prompt: 'A red kite over a grey sea' }).pipe(map((event) => event.type))
      // Created at 0; polls at 10 s (pending), 25 s (processing), 45 s (completed): video polls start at 10 s, ×1.5, at most 20 s apart.
      expectObservable(types$).toBe('a 9999ms b 14999ms c 19999ms (d|)', { a: 'created', b: 'pending', c: 'processing', d: 'completed' })
    })
  })

  it('streams a response: its deltas on the stream clock, then completion', () => {
    const testScheduler = virtual()
    testScheduler.run(({ expectObservable }) => {
      const { client } = createTestGateway({ scheduler: testScheduler, streamDelayMs: 5, respond: () => 'Hello virtual world' })
      const deltas$ = responses$(client, { model: 'gpt-4o', input: 'Say hello', stream: true }).pipe(textDeltas())
      // Events 5 ms apart: created, in_progress, item added, part added, then the three deltas; four closing events after.
      expectObservable(deltas$).toBe('20ms a 4ms b 4ms c 19ms |', { a: 'Hello', b: ' virtual', c: ' world' })
    })
  })

  it('ends a failed task in TaskFailedError with its code, at the poll that finds it failed', () => {
    const testScheduler = virtual()
    testScheduler.run(({ expectObservable }) => {
      const { client } = createTestGateway({ scheduler: testScheduler, task: () => ({ failCode: 3001 }) })
      const outcome$ = textToVideo$(client, { prompt: 'A storm' }).pipe(
        map((event) => event.type),
        catchError((error: unknown) => of(isTaskFailedError(error) ? `failed ${error.code}` : String(error))),
      )
      expectObservable(outcome$).toBe('a 9999ms (b|)', { a: 'created', b: 'failed 3001' })
    })
  })

  it('honours Retry-After in virtual time: a 429, then the same creation again 2 s later', () => {
    const testScheduler = virtual()
    const gateway = createTestGateway({ scheduler: testScheduler, faults: [{ route: 'create', status: 429, retryAfter: '2' }], respond: () => 'Hi' })
    testScheduler.run(({ expectObservable }) => {
      expectObservable(responses$(gateway.client, { model: 'gpt-4o', input: 'Hi' }).pipe(outputText())).toBe('2000ms (a|)', { a: 'Hi' })
    })
    expect(gateway.requests.map((r) => [r.at, r.status])).toEqual([
      [0, 429],
      [2000, 200],
    ])
    expect(gateway.requests[1]!.headers['idempotency-key']).toBe(gateway.requests[0]!.headers['idempotency-key'])
  })

  it('stops a stream its subscriber leaves: no more deltas, and the gateway sees the request aborted', () => {
    const testScheduler = virtual()
    const gateway = createTestGateway({ scheduler: testScheduler, respond: () => 'one two three four' })
    testScheduler.run(({ expectObservable }) => {
      const deltas$ = responses$(gateway.client, { model: 'gpt-4o', input: 'Count', stream: true }).pipe(textDeltas())
      expectObservable(deltas$, '^ 26ms !').toBe('20ms a 4ms b', { a: 'one', b: ' two' })
    })
    expect(gateway.requests).toHaveLength(1)
    expect(gateway.requests[0]).toMatchObject({ status: 200, aborted: true })
    expect(gateway.responses).toHaveLength(1)
  })

  it('lists every request with its parsed body and headers, without the key', () => {
    const testScheduler = virtual()
    const gateway = createTestGateway({ scheduler: testScheduler })
    testScheduler.run(({ expectObservable }) => {
      expectObservable(responses$(gateway.client, { model: 'gpt-4o', input: 'Say hi' }).pipe(map((r) => r.status))).toBe('(a|)', { a: 'completed' })
    })
    const [request] = gateway.requests
    expect(request).toMatchObject({ method: 'POST', path: '/vendors/vendor-a/v1/responses', body: { model: 'gpt-4o', input: 'Say hi' }, at: 0, status: 200, aborted: false })
    expect(request!.headers).not.toHaveProperty('authorization')
    expect(JSON.stringify(gateway.requests)).not.toContain('test-key')
  })
})
