import { defer, of, throwError, type Observable } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { TaskFailedError } from '../../src/errors/TaskFailedError.js'
import { TaskTimeoutError } from '../../src/errors/TaskTimeoutError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { followTask, pollTask, type PollTaskOptions, type TaskEvent } from '../../src/operators/pollTask.js'
import { DEFAULTS } from '../../src/policy/defaults.js'
import type { TaskReply } from '../../src/validation/task.js'
import { OTHER_TASK_ID, TASK_ID, taskReply } from '../helpers/fixtures.js'

const ENDPOINT = endpoints.t2vSpark
const reply = (status: string, over: Parameters<typeof taskReply>[1] = {}) => {
  const r = taskReply(status, { ...over, urls: over.urls ?? ['https://cdn.example/v.mp4'] }) as { task_info: Record<string, unknown> }
  r.task_info.updated_at = '2026-01-01T00:05:00.123Z'
  const normal = { pending: 'pending', processing: 'processing', completed: 'completed', failed: 'failed' } as Record<string, string>
  r.task_info.status = normal[status] ?? status
  return r as unknown as TaskReply
}
const notJson = () => new ValidationError('reply', [{ path: '', message: 'is not JSON' }], '<html>')
const http = (status: number, retryAfterMs?: number) => new HttpError({ method: 'GET', path: '/t', status, body: '', retryAfterMs })

interface Run {
  events: [number, string][]
  values: TaskEvent[]
  error: [number, unknown] | undefined
  completedAt: number | undefined
  reads: number[]
}

/** Follows TASK_ID in virtual time: `answer(n, now)` is the n-th read (1-based), an Observable of the reply. */
function follow(answer: (n: number, now: number) => Observable<TaskReply>, options: Partial<PollTaskOptions> = {}, unsubscribeAt?: number): Run {
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
  const run: Run = { events: [], values: [], error: undefined, completedAt: undefined, reads: [] }
  scheduler.run(({ flush }) => {
    const read = (id: string) =>
      defer(() => {
        expect(id).toBe(TASK_ID)
        run.reads.push(scheduler.now())
        return answer(run.reads.length, scheduler.now())
      })
    const sub = followTask(TASK_ID, read, { endpoint: ENDPOINT, poll: { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0 }, scheduler, random: () => 0.5, ...options }).subscribe({
      next: (e) => (run.values.push(e), run.events.push([scheduler.now(), e.type])),
      error: (e: unknown) => (run.error = [scheduler.now(), e]),
      complete: () => (run.completedAt = scheduler.now()),
    })
    if (unsubscribeAt !== undefined) scheduler.schedule(() => sub.unsubscribe(), unsubscribeAt)
    flush()
  })
  return run
}

/** A task pending for 60 s, processing until `doneAt`, then `final`. */
const lifecycle = (doneAt: number, final = 'completed') => (_: number, now: number) => of(reply(now >= doneAt ? final : now >= 60_000 ? 'processing' : 'pending'))

/** Expects the follow to have ended with an error that names the task and its endpoint. */
function endedWith(run: Run): unknown {
  expect(run.error, 'the follow ended with an error').toBeDefined()
  const error = run.error![1]
  expect(isGatewayError(error)).toBe(true)
  expect(error).toMatchObject({ taskId: TASK_ID, endpoint: ENDPOINT })
  return error
}

describe('followTask: timing', () => {
  it('polls at 10 s, 25 s, then every 20 s under the default video policy (no jitter drawn)', () => {
    const run = follow(lifecycle(100_000), { poll: DEFAULTS.taskPoll.video, random: () => 0 })
    expect(run.reads).toEqual([10_000, 25_000, 45_000, 65_000, 85_000, 105_000])
  })

  it.each([0, 0.5, 0.999])('sees a render done at 5 min within 20 s and with at most 17 reads, never more than 20 s apart (random %s)', (random) => {
    const run = follow(lifecycle(300_000), { poll: DEFAULTS.taskPoll.video, random: () => random })
    expect(run.reads.length).toBeLessThanOrEqual(17)
    const [doneAt, type] = run.events.at(-1)!
    expect(type).toBe('completed')
    expect(doneAt - 300_000).toBeGreaterThanOrEqual(0)
    expect(doneAt - 300_000).toBeLessThanOrEqual(20_000)
    for (let i = 1; i < run.reads.length; i++) {
      expect(run.reads[i]! - run.reads[i - 1]!).toBeLessThanOrEqual(20_000)
      expect(run.reads[i]! - run.reads[i - 1]!).toBeGreaterThanOrEqual(9_500)
    }
  })

  it('reads at once when `immediate` (following an existing task)', () => {
    expect(follow(lifecycle(0), { immediate: true }).reads).toEqual([0])
  })
})

describe('followTask: events', () => {
  it('emits each status once, in order, then completed with the URLs and the expiry (1 h after updated_at), then completes', () => {
    const run = follow(lifecycle(100_000))
    expect(run.events).toEqual([
      [10_000, 'pending'],
      [65_000, 'processing'],
      [105_000, 'completed'],
    ])
    expect(run.values[2]).toMatchObject({ type: 'completed', taskId: TASK_ID, urls: ['https://cdn.example/v.mp4'], expiresAt: new Date('2026-01-01T01:05:00.123Z') })
    expect(run.values[0]).toMatchObject({ type: 'pending', taskId: TASK_ID, taskInfo: { id: TASK_ID, status: 'pending' } })
    expect(run.completedAt).toBe(105_000)
  })

  it('never emits a status that goes backwards (processing → pending), nor one twice', () => {
    const statuses = ['processing', 'pending', 'processing', 'pending', 'completed']
    const run = follow((n) => of(reply(statuses[n - 1]!)), { poll: { initialDelayMs: 1, factor: 1, maxDelayMs: 1, jitter: 0 } })
    expect(run.events.map(([, type]) => type)).toEqual(['processing', 'completed'])
    expect(run.reads).toHaveLength(5)
  })

  it('gives image tasks their images and no expiry', () => {
    const run = follow(() => of(reply('completed', { field: 'images', urls: ['https://cdn.test/1.png', 'https://cdn.test/2.png'] })), { endpoint: endpoints.i2iPreview, immediate: true })
    expect(run.values).toEqual([expect.objectContaining({ type: 'completed', urls: ['https://cdn.test/1.png', 'https://cdn.test/2.png'] })])
    expect('expiresAt' in run.values[0]!).toBe(false)
  })

  it('accepts a reply that names the task in upper case', () => {
    expect(follow(() => of(reply('completed', { id: TASK_ID.toUpperCase() })), { immediate: true }).completedAt).toBe(0)
  })
})

describe('followTask: endings', () => {
  it('ends a failed task in TaskFailedError with the gateway’s code, title and detail, the task and the endpoint', () => {
    const run = follow(lifecycle(25_000, 'failed'))
    expect(run.error![0]).toBe(25_000)
    const error = endedWith(run)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error).toMatchObject({ code: 3001, title: 'Task Execution Error', detail: 'prompt refused' })
  })

  it('takes a last look at the deadline, then ends in TaskTimeoutError naming the task, endpoint, deadline and last status; no read after', () => {
    const run = follow(lifecycle(Number.POSITIVE_INFINITY), { poll: DEFAULTS.taskPoll.video })
    expect(run.error![0]).toBe(15 * 60_000)
    const error = endedWith(run)
    expect(error).toBeInstanceOf(TaskTimeoutError)
    expect(error).toMatchObject({ deadlineMs: 15 * 60_000, lastStatus: 'processing' })
    expect((error as Error).cause).toBeUndefined()
    expect(run.reads.at(-1)).toBe(15 * 60_000)
  })

  it('cuts a retry wait to the deadline: a 60 s Retry-After cannot overrun a 30 s deadline', () => {
    const rateLimited = http(429, 60_000)
    const run = follow(() => throwError(() => rateLimited), { deadlineMs: 30_000 })
    expect(run.reads).toEqual([10_000, 30_000])
    expect(run.error![0]).toBe(30_000)
    expect(endedWith(run)).toMatchObject({ name: 'TaskTimeoutError', deadlineMs: 30_000, cause: rateLimited })
  })

  it('ends at the deadline even when the first poll would come later', () => {
    const run = follow(lifecycle(Number.POSITIVE_INFINITY), { deadlineMs: 5_000 })
    expect(run.reads).toEqual([5_000])
    expect(run.error![0]).toBe(5_000)
    expect(endedWith(run)).toBeInstanceOf(TaskTimeoutError)
  })
})

describe('followTask: failed reads', () => {
  const transient: [string, () => Observable<TaskReply>][] = [
    ['a reply that is not JSON', () => throwError(notJson)],
    ['a reply of the wrong shape', () => throwError(() => new ValidationError('reply', [{ path: 'task_info.status', message: 'x' }], {}))],
    ['an HTML page', () => throwError(() => new ValidationError('reply', [{ path: '', message: 'is text/html, not JSON' }], '<html>'))],
    ['a reply naming another task', () => of(reply('processing', { id: OTHER_TASK_ID }))],
    ['a 502', () => throwError(() => http(502))],
    ['a 429', () => throwError(() => http(429))],
    ['a 408', () => throwError(() => http(408))],
    ['a broken connection', () => throwError(() => new ConnectionError('GET', '/t', 'reset', true))],
    ['a silent gateway', () => throwError(() => new TimeoutError('GET', '/t', 1_000))],
  ]

  it.each(transient)('retries %s 5 times in a row without ending the follow', (_, failure) => {
    const run = follow((n) => (n <= 5 ? failure() : of(reply('completed'))), { retry: { baseDelayMs: 100 } })
    expect(run.error).toBeUndefined()
    expect(run.reads).toHaveLength(6)
    expect(run.events.map(([, t]) => t)).toEqual(['completed'])
  })

  it.each(transient)('ends the follow after a 6th failure in a row (%s), naming the task and endpoint', (_, failure) => {
    const run = follow((n) => (n <= 6 ? failure() : of(reply('completed'))), { retry: { baseDelayMs: 100 } })
    expect(run.reads).toHaveLength(6)
    expect(run.error).toBeDefined()
    const error = endedWith(run) as Error
    expect(error.message).toContain(`follow it again with task$(client, endpoint, '${TASK_ID}')`)
  })

  it('says which task a reply named instead of the one followed', () => {
    const run = follow(() => of(reply('processing', { id: OTHER_TASK_ID })), { retry: { baseDelayMs: 100 } })
    const error = endedWith(run)
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: 'task_info.id', message: `names task ${OTHER_TASK_ID}, not ${TASK_ID}` }] })
    expect((error as Error).message).toContain(`Unexpected reply to ${ENDPOINT.resultPath}/{task_id} from the gateway`)
  })

  it('starts the count again after a good reply: 5 failures, a reply, 5 failures, completed', () => {
    const run = follow((n) => (n === 6 ? of(reply('processing')) : n === 12 ? of(reply('completed')) : throwError(() => http(503))), { retry: { baseDelayMs: 100 } })
    expect(run.error).toBeUndefined()
    expect(run.reads).toHaveLength(12)
    expect(run.events.map(([, t]) => t)).toEqual(['processing', 'completed'])
  })

  it('waits out Retry-After, and otherwise a jittered delay, between retries', () => {
    const run = follow((n) => (n === 1 ? throwError(() => http(429, 7_000)) : n === 2 ? throwError(() => http(502)) : of(reply('completed'))), { retry: { baseDelayMs: 1_000 } })
    // 10 s; Retry-After 7 s; then 0.5 × 2 s (the 2nd retry's ceiling).
    expect(run.reads).toEqual([10_000, 17_000, 18_000])
    expect(run.error).toBeUndefined()
  })

  it.each([
    ['a 404', () => http(404)],
    ['a 401', () => http(401)],
    ['a quota 429', () => new HttpError({ method: 'GET', path: '/t', status: 429, body: '{"error":{"code":"insufficient_quota"}}' })],
    ['a body over maxBodyBytes', () => new PayloadTooLargeError('GET', '/t', 'maxBodyBytes', 10)],
  ])('does not retry %s: the follow ends at the first, naming the task and endpoint', (_, error) => {
    const run = follow(() => throwError(error))
    expect(run.reads).toEqual([10_000])
    expect(run.error![0]).toBe(10_000)
    expect(endedWith(run)).toMatchObject({ name: error().name })
  })

  it('wraps a foreign failure of the read (a bug) in a GatewayError naming the task', () => {
    const run = follow(() => {
      throw new TypeError('read is broken')
    })
    expect(endedWith(run)).toMatchObject({ name: 'GatewayError', message: expect.stringContaining('TypeError: read is broken') })
  })
})

describe('followTask: unsubscribing', () => {
  it('while waiting to poll: no read is ever sent and no timer is left', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
    scheduler.run(({ cold, expectSubscriptions, flush }) => {
      const source = cold<TaskReply>('-a|', { a: reply('processing') })
      const sub = followTask(TASK_ID, () => source, { endpoint: ENDPOINT, poll: DEFAULTS.taskPoll.video, scheduler, random: () => 0 }).subscribe()
      scheduler.schedule(() => sub.unsubscribe(), 30_000)
      flush()
      expectSubscriptions(source.subscriptions).toBe(['10000ms ^-!', '25002ms ^-!'])
      // A leaked poll or deadline timer would have run during flush and moved the clock past 30 s.
      expect(scheduler.now()).toBe(30_000)
    })
  })

  it('during a read: unsubscribes the read in flight (which aborts its request)', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
    scheduler.run(({ cold, expectSubscriptions, flush }) => {
      const slow = cold<TaskReply>('5000ms a|', { a: reply('processing') })
      const sub = followTask(TASK_ID, () => slow, { endpoint: ENDPOINT, poll: DEFAULTS.taskPoll.video, scheduler, random: () => 0 }).subscribe()
      scheduler.schedule(() => sub.unsubscribe(), 12_000)
      flush()
      expectSubscriptions(slow.subscriptions).toBe('10000ms ^ 1999ms !')
      expect(scheduler.now()).toBe(12_000)
    })
  })

  it('during a retried read: unsubscribes it too', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
    scheduler.run(({ cold, expectSubscriptions, flush }) => {
      const bad = cold<TaskReply>('-#', undefined, http(503, 1_000))
      const slow = cold<TaskReply>('5000ms a|', { a: reply('processing') })
      let n = 0
      const sub = followTask(TASK_ID, () => (++n === 1 ? bad : slow), { endpoint: ENDPOINT, poll: DEFAULTS.taskPoll.video, scheduler, random: () => 0 }).subscribe()
      scheduler.schedule(() => sub.unsubscribe(), 13_000)
      flush()
      expectSubscriptions(slow.subscriptions).toBe('11001ms ^ 1998ms !')
    })
  })
})

describe('pollTask', () => {
  it('follows every task info it is given, each by its id', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
    const seen: string[] = []
    scheduler.run(({ cold, flush }) => {
      const read = (id: string) => of(reply('completed', { id }))
      cold('a 1s b|', { a: { id: TASK_ID }, b: { id: OTHER_TASK_ID } })
        .pipe(pollTask(read, { endpoint: ENDPOINT, poll: { initialDelayMs: 500, factor: 1, maxDelayMs: 500, jitter: 0 }, scheduler }))
        .subscribe((e) => seen.push(`${scheduler.now()} ${e.taskId} ${e.type}`))
      flush()
    })
    expect(seen).toEqual([`500 ${TASK_ID} completed`, `1501 ${OTHER_TASK_ID} completed`])
  })
})
