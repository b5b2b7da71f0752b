import { NEVER, Observable, of, Subject, throwError } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { loop$, runLoop, type LoopPlan, type Sink } from '../../src/policy/loop.js'
import { VirtualClock } from '../helpers/clock.js'

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const boom = new Error('boom')

/** One loop whose every subscription uses the same plan. */
const loopOf = <T, R>(p: LoopPlan<T, R>) => loop$(() => p)

/** A plan whose attempt number `n` is `attempts[n - 1]` (and NEVER past the list, so a runaway loop stalls instead of spinning). */
function plan<T>(attempts: Observable<T>[], more: Partial<LoopPlan<T, T>> & Pick<LoopPlan<T, T>, 'scheduler'>): LoopPlan<T, T> {
  return {
    attempt: (n) => attempts[n - 1] ?? NEVER,
    take: (value, out) => (out.next(value), 'more'),
    retry: () => undefined,
    ...more,
  }
}

describe('loop$: attempts and waits', () => {
  it('runs attempts one at a time, waiting `again` after each, and completes when `take` says done', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const [a, b, c] = [cold('-a|'), cold('-b|'), cold('-c|')]
      const loop = loopOf(plan([a, b, c], { scheduler, take: (v, out) => (out.next(v), v === 'c' ? 'done' : 'more'), again: () => 10 }))
      expectObservable(loop).toBe('-a 11ms b 11ms (c|)')
      expectSubscriptions(a.subscriptions).toBe('^-!')
      expectSubscriptions(b.subscriptions).toBe('12ms ^-!')
      expectSubscriptions(c.subscriptions).toBe('24ms ^!')
    })
  })

  it('passes the attempt number and the count of answered attempts, and completes when `again` gives undefined', () => {
    const scheduler = testScheduler()
    const numbers: number[] = []
    const answered: number[] = []
    scheduler.run(({ cold, expectObservable }) => {
      const loop = loopOf<string, string>({
        attempt: (n) => (numbers.push(n), cold('-x|')),
        take: (v, out) => (out.next(v), 'more'),
        again: (n) => (answered.push(n), n < 3 ? 5 : undefined),
        retry: () => undefined,
        scheduler,
      })
      expectObservable(loop).toBe('-x 6ms x 6ms x|')
    })
    expect(numbers).toEqual([1, 2, 3])
    expect(answered).toEqual([1, 2, 3])
  })

  it('emits only what `take` passes to emit', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      const loop = loopOf<number, string>({
        attempt: () => cold('-1-2-3|', { 1: 1, 2: 2, 3: 3 }),
        take: (v, out) => (v % 2 === 1 && out.next(`odd ${v}`), v === 3 ? 'done' : 'more'),
        retry: () => undefined,
        scheduler,
      })
      expectObservable(loop).toBe('-a---(b|)', { a: 'odd 1', b: 'odd 3' })
    })
  })

  it('waits `firstDelay` before the first attempt', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-a|')
      expectObservable(loopOf(plan([a], { scheduler, firstDelay: 50, take: (v, out) => (out.next(v), 'done') }))).toBe('51ms (a|)')
      expectSubscriptions(a.subscriptions).toBe('50ms ^!')
    })
  })

  it('stops listening to an attempt once `take` has said done, and ignores what it sends after', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-a-b-c|')
      expectObservable(loopOf(plan([a], { scheduler, take: (v, out) => (out.next(v), v === 'a' ? 'done' : 'more') }))).toBe('-(a|)')
      expectSubscriptions(a.subscriptions).toBe('^!')
    })
  })

  it('runs synchronous attempts (values, completion and errors delivered at subscription)', () => {
    const clock = new VirtualClock()
    const seen: string[] = []
    let failures = 0
    let done = false
    loopOf<string, string>({
      attempt: (n) => (n === 2 ? throwError(() => boom) : of(`v${n}`)),
      take: (v, out) => (out.next(v), v === 'v4' ? 'done' : 'more'),
      again: () => 10,
      retry: (_, f) => (failures = f) && 5,
      scheduler: clock,
    }).subscribe({ next: (v) => seen.push(v), complete: () => (done = true) })
    expect(seen).toEqual(['v1'])
    clock.advance(10) // attempt 2 fails at once: a retry wait of 5
    expect(failures).toBe(1)
    clock.advance(5)
    expect(seen).toEqual(['v1', 'v3'])
    clock.advance(10)
    expect(seen).toEqual(['v1', 'v3', 'v4'])
    expect(done).toBe(true)
    expect(clock.pending).toBe(0)
  })
})

describe('loop$: subscriptions', () => {
  it('makes a plan for each subscription, so each loop keeps its own state', () => {
    const clock = new VirtualClock()
    let plans = 0
    const loop = loop$<string, string>(() => {
      const n = ++plans
      return { attempt: () => of(`plan ${n}`), take: (v, out) => (out.next(v), 'done'), retry: () => undefined, scheduler: clock }
    })
    expect(plans).toBe(0)
    const seen: string[] = []
    loop.subscribe((v) => seen.push(v))
    loop.subscribe((v) => seen.push(v))
    expect(seen).toEqual(['plan 1', 'plan 2'])
  })
})

describe('loop$: failures', () => {
  it('retries a failed attempt after the wait `retry` gives, counting failures in a row, and ends with the error when `retry` gives undefined', () => {
    const scheduler = testScheduler()
    const calls: [unknown, number][] = []
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-#', undefined, boom)
      const loop = loopOf(plan([a, a, a, a], { scheduler, retry: (e, n) => (calls.push([e, n]), n <= 2 ? 5 : undefined) }))
      expectObservable(loop).toBe('13ms #', undefined, boom)
      expectSubscriptions(a.subscriptions).toBe(['^!', '6ms ^!', '12ms ^!'])
    })
    expect(calls).toEqual([
      [boom, 1],
      [boom, 2],
      [boom, 3],
    ])
  })

  it('resets the count of failures in a row after a value: two failures, a good reply, two failures, a good reply completes', () => {
    const scheduler = testScheduler()
    const counts: number[] = []
    scheduler.run(({ cold, expectObservable }) => {
      const bad = cold('-#', undefined, boom)
      const good = (v: string) => cold(`-${v}|`)
      const loop = loopOf(
        plan([bad, bad, good('a'), bad, bad, good('b')], {
          scheduler,
          take: (v, out) => (out.next(v), v === 'b' ? 'done' : 'more'),
          again: () => 0,
          retry: (_, n) => (counts.push(n), n <= 2 ? 0 : undefined),
        }),
      )
      expectObservable(loop).toBe('---a---(b|)')
    })
    expect(counts).toEqual([1, 2, 1, 2])
  })

  it('does not count a value `take` calls old as progress: failures in a row go on counting across it', () => {
    const scheduler = testScheduler()
    const counts: number[] = []
    scheduler.run(({ cold, expectObservable }) => {
      const bad = cold('-#', undefined, boom)
      const old = cold('-o#', undefined, boom)
      const loop = loopOf(plan([bad, old, old, bad], { scheduler, take: (v) => (v === 'o' ? 'old' : 'more'), retry: (_, n) => (counts.push(n), n <= 2 ? 0 : undefined) }))
      expectObservable(loop).toBe('-----#', undefined, boom)
    })
    expect(counts).toEqual([1, 2, 3])
  })

  it('tells each attempt how many failures in a row came before it', () => {
    const scheduler = testScheduler()
    const seen: [number, number][] = []
    scheduler.run(({ cold, flush }) => {
      const bad = cold('-#', undefined, boom)
      const good = cold('-a|')
      const attempts = [bad, bad, good, bad]
      loop$<string, string>(() => ({
        attempt: (n, failures) => (seen.push([n, failures]), attempts[n - 1] ?? NEVER),
        take: () => 'more',
        again: () => 0,
        retry: () => 0,
        scheduler,
      })).subscribe()
      flush()
    })
    expect(seen.slice(0, 5)).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 0],
      [5, 1],
    ])
  })

  it('counts a value that `take` throws on as a failure in a row, like any other: the budget runs out', () => {
    const scheduler = testScheduler()
    const counts: number[] = []
    const refused = new Error('wrong reply')
    scheduler.run(({ cold, expectObservable }) => {
      const wrong = cold('-x|')
      const loop = loopOf(
        plan([wrong, wrong, wrong, wrong, wrong, wrong], {
          scheduler,
          take: () => {
            throw refused
          },
          retry: (_, n) => (counts.push(n), n <= 2 ? 0 : undefined),
        }),
      )
      expectObservable(loop).toBe('---#', undefined, refused)
    })
    expect(counts).toEqual([1, 2, 3])
  })

  it('unsubscribes an attempt whose value `take` threw on, and ignores what it sends after', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-x-y|')
      const loop = loopOf(plan([a], { scheduler, take: () => { throw boom } }))
      expectObservable(loop).toBe('-#', undefined, boom)
      expectSubscriptions(a.subscriptions).toBe('^!')
    })
  })

  it('ends with what `fail` makes of the last failure', () => {
    const scheduler = testScheduler()
    const wrapped = new Error('wrapped')
    scheduler.run(({ cold, expectObservable }) => {
      const loop = loopOf(plan([cold('-#', undefined, boom)], { scheduler, fail: (e) => (e === boom ? wrapped : e) }))
      expectObservable(loop).toBe('-#', undefined, wrapped)
    })
  })
})

describe('loop$: deadline', () => {
  it('cuts each wait to the time left before the deadline, then ends with `overdue`', () => {
    const scheduler = testScheduler()
    const overdue = new Error('overdue')
    const lastFailures: unknown[] = []
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-a|')
      const loop = loopOf(plan([a, a, a, a], { scheduler, again: () => 100, deadlineAt: 150, overdue: (f) => (lastFailures.push(f), overdue) }))
      // 0–2, wait 100; 102–104, wait cut to 46; a last look at 150–152; then the deadline has passed.
      expectObservable(loop).toBe('-a 101ms a 47ms a#', undefined, overdue)
      expectSubscriptions(a.subscriptions).toBe(['^-!', '102ms ^-!', '150ms ^-!'])
    })
    expect(lastFailures).toEqual([undefined])
  })

  it('cuts a retry wait (a long Retry-After) to the deadline and hands the failure being retried to `overdue`', () => {
    const scheduler = testScheduler()
    const lastFailures: unknown[] = []
    const overdue = new Error('overdue')
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-#', undefined, boom)
      const loop = loopOf(plan([a, a, a], { scheduler, retry: () => 60_000, deadlineAt: 30, overdue: (f) => (lastFailures.push(f), overdue) }))
      expectObservable(loop).toBe('31ms #', undefined, overdue)
      expectSubscriptions(a.subscriptions).toBe(['^!', '30ms ^!'])
    })
    expect(lastFailures).toEqual([boom])
  })

  it('passes `overdue` through `fail`', () => {
    const scheduler = testScheduler()
    const overdue = new Error('overdue')
    const failed: unknown[] = []
    scheduler.run(({ cold, expectObservable }) => {
      const loop = loopOf(plan([cold('-a|')], { scheduler, again: () => 100, deadlineAt: 1, overdue: () => overdue, fail: (e) => (failed.push(e), e) }))
      expectObservable(loop).toBe('-a#', undefined, overdue)
    })
    expect(failed).toEqual([overdue])
  })
})

describe('loop$: unsubscribing', () => {
  it('during the first attempt: unsubscribes the attempt (which aborts its request)', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-----a|')
      expectObservable(loopOf(plan([a], { scheduler })), '^--!').toBe('---')
      expectSubscriptions(a.subscriptions).toBe('^--!')
    })
  })

  it('during a later attempt, started by a timer: unsubscribes that attempt', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('-a|')
      const second = cold('-----b|')
      expectObservable(loopOf(plan([first, second], { scheduler, again: () => 10 })), '^ 14ms !').toBe('-a')
      expectSubscriptions(second.subscriptions).toBe('12ms ^--!')
    })
  })

  it('during a retry started by a timer: unsubscribes that attempt', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const bad = cold('-#', undefined, boom)
      const slow = cold('-----a|')
      expectObservable(loopOf(plan([bad, slow], { scheduler, retry: () => 10 })), '^ 14ms !').toBe('-')
      expectSubscriptions(slow.subscriptions).toBe('11ms ^---!')
    })
  })

  it('while waiting: clears the timer, so the next attempt never starts and no timer is left', () => {
    const clock = new VirtualClock()
    const started: number[] = []
    const sub = loopOf<string, string>({
      attempt: (n) => (started.push(n), of('x')),
      take: () => 'more',
      again: () => 1_000,
      retry: () => undefined,
      scheduler: clock,
    }).subscribe()
    expect(started).toEqual([1])
    expect(clock.pendingDelays).toEqual([1_000])
    sub.unsubscribe()
    expect(clock.pending).toBe(0)
    clock.advance(10_000)
    expect(started).toEqual([1])
  })

  it('holds one timer or one attempt at a time, never both', () => {
    const clock = new VirtualClock()
    const attempts: Subject<string>[] = []
    loopOf<string, string>({
      attempt: () => {
        const s = new Subject<string>()
        attempts.push(s)
        return s
      },
      take: () => 'more',
      again: () => 100,
      retry: () => 50,
      scheduler: clock,
    }).subscribe()
    expect([attempts.length, clock.pending, attempts[0]!.observed]).toEqual([1, 0, true])
    attempts[0]!.error(boom)
    expect([attempts[0]!.observed, clock.pendingDelays]).toEqual([false, [50]])
    clock.advance(50)
    expect([attempts.length, clock.pending, attempts[1]!.observed]).toEqual([2, 0, true])
    attempts[1]!.next('x')
    attempts[1]!.complete()
    expect([attempts[1]!.observed, clock.pendingDelays]).toEqual([false, [100]])
  })
})

describe('loop$: an attempt that is over is not listened to', () => {
  it('a value or a failure an attempt sends after the value that ended the loop is not taken, and is not judged', () => {
    const clock = new VirtualClock()
    const taken: string[] = []
    const judged: unknown[] = []
    let attempts = 0
    const values: string[] = []
    let completed = false
    loop$<string, string>(() => ({
      attempt: () => {
        attempts++
        // An attempt that goes on after its last value, as a raw Observable can.
        return new Observable<string>((s) => {
          s.next('done')
          s.next('late')
          s.error(boom)
        })
      },
      take: (v, out) => (taken.push(v), out.next(v), 'done'),
      retry: (error) => (judged.push(error), 0),
      scheduler: clock,
    })).subscribe({ next: (v) => values.push(v), complete: () => (completed = true) })
    clock.advance(1_000)
    expect({ taken, judged, attempts, values, completed }).toEqual({ taken: ['done'], judged: [], attempts: 1, values: ['done'], completed: true })
  })
})

describe('runLoop: into a sink of its own', () => {
  function sink(): Sink<string> & { values: string[]; completions: number; closed: boolean } {
    return {
      values: [],
      completions: 0,
      closed: false,
      next(v) {
        this.values.push(v)
      },
      error() {
        this.closed = true
      },
      complete() {
        this.completions++
        this.closed = true
      },
    }
  }

  it('unsubscribes the attempt that the plan ends, at once: nothing it sends later reaches the sink', () => {
    const source = new Subject<string>()
    let unsubscribed = false
    const attempt = new Observable<string>((s) => {
      const inner = source.subscribe(s)
      return () => {
        unsubscribed = true
        inner.unsubscribe()
      }
    })
    const out = sink()
    runLoop<string, string>({ attempt: () => attempt, take: (v, o) => (o.next(v), v === 'last' ? 'done' : 'more'), retry: () => undefined, scheduler: new VirtualClock() }, out)
    source.next('a')
    source.next('last')
    expect(unsubscribed).toBe(true)
    source.next('after')
    expect([out.values, out.completions]).toEqual([['a', 'last'], 1])
  })

  it('a sink that closed while an attempt was in flight is told nothing more, and no further attempt is planned', () => {
    const clock = new VirtualClock()
    const source = new Subject<string>()
    const asked: number[] = []
    const out = sink()
    runLoop<string, string>({ attempt: () => source, take: (v, o) => (o.next(v), 'more'), again: (n) => (asked.push(n), 10), retry: () => undefined, scheduler: clock }, out)
    source.next('a')
    out.closed = true
    source.complete()
    clock.advance(100)
    expect({ values: out.values, completions: out.completions, asked, pending: clock.pending }).toEqual({ values: ['a'], completions: 0, asked: [], pending: 0 })
  })
})
