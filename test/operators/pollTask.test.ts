import { defer, of, throwError, type Observable } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { TaskFailedError } from '../../src/errors/TaskFailedError.js'
import { TaskTimeoutError } from '../../src/errors/TaskTimeoutError.js'
import { pollTask, type TaskEvent } from '../../src/operators/pollTask.js'
import { TASK_POLL_DEFAULTS } from '../../src/tasks$.js'
import type { TaskReply, TaskStatus } from '../../src/validation/task.js'

const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
const T0 = '2026-01-01T00:00:00Z'

function reply(status: TaskStatus): TaskReply {
  return {
    task_info: {
      id: ID,
      status,
      created_at: T0,
      updated_at: '2026-01-01T00:05:00.123Z',
      ...(status === 'failed' ? { error: { code: 3001, title: 'Task Execution Error', detail: 'prompt refused' } } : {}),
    },
    ...(status === 'completed' ? { videos: ['https://cdn.example/v.mp4'] } : {}),
  }
}

/** A gateway whose task is pending for 60 s, processing until `doneAt`, then `final`; it records when it was read. */
function gatewayTask(scheduler: TestScheduler, doneAt: number, final: TaskStatus = 'completed') {
  const reads: number[] = []
  const read = (id: string): Observable<TaskReply> =>
    defer(() => {
      expect(id).toBe(ID)
      const now = scheduler.now()
      reads.push(now)
      return of(reply(now >= doneAt ? final : now >= 60_000 ? 'processing' : 'pending'))
    })
  return { reads, read }
}

function run(
  body: (helpers: { scheduler: TestScheduler; events: Array<[number, TaskEvent]>; errors: Array<[number, unknown]> }) => void,
) {
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
  const events: Array<[number, TaskEvent]> = []
  const errors: Array<[number, unknown]> = []
  scheduler.run(({ flush }) => {
    body({ scheduler, events, errors })
    flush()
  })
  return { events, errors }
}

function follow(read: (id: string) => Observable<TaskReply>, random: number, extra: Partial<Parameters<typeof pollTask>[1]> = {}) {
  return of({ id: ID }).pipe(pollTask(read, { endpoint: endpoints.t2vSpark, poll: TASK_POLL_DEFAULTS.video, random: () => random, ...extra }))
}

describe('pollTask under the default video policy', () => {
  it('polls at 10 s, 25 s, then every 20 s (no jitter drawn)', () => {
    let reads: number[] = []
    run(({ scheduler }) => {
      const task = gatewayTask(scheduler, 100_000)
      reads = task.reads
      follow(task.read, 0).subscribe()
    })
    expect(reads).toEqual([10_000, 25_000, 45_000, 65_000, 85_000, 105_000])
  })

  it.each([0, 0.5, 0.999])('a render done at 5 min costs at most 17 reads and is seen within 20 s (random %s)', (random) => {
    let reads: number[] = []
    const seen: Array<[number, string]> = []
    run(({ scheduler }) => {
      const task = gatewayTask(scheduler, 300_000)
      reads = task.reads
      follow(task.read, random).subscribe((event) => seen.push([scheduler.now(), event.type]))
    })
    expect(reads.length).toBeLessThanOrEqual(17)
    const [doneAt, type] = seen.at(-1)!
    expect(type).toBe('completed')
    expect(doneAt - 300_000).toBeGreaterThanOrEqual(0)
    expect(doneAt - 300_000).toBeLessThanOrEqual(20_000)
    // Never more than 20 s between two reads, never less than 10 s minus jitter.
    for (let i = 1; i < reads.length; i++) {
      expect(reads[i]! - reads[i - 1]!).toBeLessThanOrEqual(20_000)
      expect(reads[i]! - reads[i - 1]!).toBeGreaterThanOrEqual(9_500)
    }
  })

  it('emits each status once, in order, then completed with urls and expiry, then completes', () => {
    const seen: Array<[number, TaskEvent]> = []
    let completed = false
    run(({ scheduler }) => {
      const task = gatewayTask(scheduler, 100_000)
      follow(task.read, 0).subscribe({ next: (e) => seen.push([scheduler.now(), e]), complete: () => (completed = true) })
    })
    expect(seen.map(([t, e]) => [t, e.type])).toEqual([
      [10_000, 'pending'],
      [65_000, 'processing'],
      [105_000, 'completed'],
    ])
    const last = seen[2]![1]
    expect(last.type === 'completed' && last.urls).toEqual(['https://cdn.example/v.mp4'])
    expect(last.type === 'completed' && last.expiresAt?.toISOString()).toBe('2026-01-01T01:05:00.123Z')
    expect(completed).toBe(true)
  })

  it('reads at once when following an existing task', () => {
    let reads: number[] = []
    run(({ scheduler }) => {
      const task = gatewayTask(scheduler, 0)
      reads = task.reads
      follow(task.read, 0, { immediate: true }).subscribe()
    })
    expect(reads).toEqual([0])
  })
})

describe('pollTask endings', () => {
  it('ends a failed task in TaskFailedError with the gateway code, title and detail', () => {
    const { errors } = run(({ scheduler, errors }) => {
      const task = gatewayTask(scheduler, 25_000, 'failed')
      follow(task.read, 0).subscribe({ error: (e) => errors.push([scheduler.now(), e]) })
    })
    const [at, error] = errors[0]!
    expect(at).toBe(25_000)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error).toMatchObject({ taskId: ID, code: 3001, title: 'Task Execution Error', detail: 'prompt refused' })
  })

  it('takes a last look at the deadline, then ends in TaskTimeoutError naming the task and endpoint', () => {
    let reads: number[] = []
    const { errors } = run(({ scheduler, errors }) => {
      const task = gatewayTask(scheduler, Number.POSITIVE_INFINITY)
      reads = task.reads
      follow(task.read, 0).subscribe({ error: (e) => errors.push([scheduler.now(), e]) })
    })
    const [at, error] = errors[0]!
    expect(at).toBe(15 * 60_000)
    expect(error).toBeInstanceOf(TaskTimeoutError)
    expect(error).toMatchObject({ taskId: ID, endpoint: endpoints.t2vSpark, lastStatus: 'processing' })
    expect((error as Error).message).toContain('task$')
    expect(reads.at(-1)).toBe(15 * 60_000)
    expect(reads.filter((t) => t > 15 * 60_000)).toEqual([])
  })

  it('retries a transient failure without ending the task, waiting out Retry-After', () => {
    const reads: number[] = []
    const seen: string[] = []
    run(({ scheduler }) => {
      const read = () =>
        defer(() => {
          reads.push(scheduler.now())
          if (reads.length === 1) return throwError(() => new HttpError({ method: 'GET', path: '/t', status: 429, body: '', retryAfterMs: 7_000 }))
          if (reads.length === 2) return throwError(() => new HttpError({ method: 'GET', path: '/t', status: 502, body: '' }))
          return of(reply('completed'))
        })
      follow(read, 0.5).subscribe((e) => seen.push(e.type))
    })
    // 10 s × (1 - 0.05 × 0.5) = 9750; then Retry-After 7 s; then full jitter 0.5 × 2 s (2nd retry's ceiling).
    expect(reads).toEqual([9_750, 16_750, 17_750])
    expect(seen).toEqual(['completed'])
  })

  it('gives up on a transient failure past the retry budget, and not on a 4xx', () => {
    const { errors } = run(({ scheduler, errors }) => {
      const read = () => throwError(() => new HttpError({ method: 'GET', path: '/t', status: 404, body: '{"detail":"no such task"}' }))
      follow(read, 0).subscribe({ error: (e) => errors.push([scheduler.now(), e]) })
    })
    expect(errors[0]![0]).toBe(10_000)
    expect(errors[0]![1]).toMatchObject({ status: 404, kind: 'not_found' })
  })

  it('leaves no timer behind when unsubscribed while waiting to poll', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b))
    scheduler.run(({ cold, expectSubscriptions, flush }) => {
      const source = cold<TaskReply>('-a|', { a: reply('processing') })
      const sub = follow(() => source, 0).subscribe()
      scheduler.schedule(() => sub.unsubscribe(), 30_000)
      flush()
      expectSubscriptions(source.subscriptions).toBe(['10000ms ^-!', '25001ms ^-!'])
      // A leaked poll or deadline timer would have run during flush and moved the clock past 30 s.
      expect(scheduler.now()).toBe(30_000)
    })
  })
})
