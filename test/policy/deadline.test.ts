import { Observable, of } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { deadline } from '../../src/policy/deadline.js'
import { VirtualClock } from '../helpers/clock.js'

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const late = new Error('late')

describe('deadline', () => {
  it('ends a source still running at `ms` with error(), and unsubscribes from it', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a---b|')
      expectObservable(deadline(source, 3, scheduler, () => late)).toBe('-a-#', undefined, late)
      expectSubscriptions(source.subscriptions).toBe('^--!')
    })
  })

  it('lets a source that finishes in time through as it is, values, completion and errors', () => {
    const scheduler = testScheduler()
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(deadline(cold('-a-b|'), 10, scheduler, () => late)).toBe('-a-b|')
      expectObservable(deadline(cold('-a#'), 10, scheduler, () => late)).toBe('-a#')
    })
  })

  it('makes the error only when the deadline passes, and leaves no timer once the source finished or was unsubscribed', () => {
    const clock = new VirtualClock()
    let made = 0
    const error = () => (made++, late)
    deadline(of('x'), 1_000, clock, error).subscribe()
    expect(clock.pending).toBe(0)
    const sub = deadline(new Observable<never>(() => {}), 1_000, clock, error).subscribe({ error: () => {} })
    expect(clock.pendingDelays).toEqual([1_000])
    sub.unsubscribe()
    expect(clock.pending).toBe(0)
    clock.advance(5_000)
    expect(made).toBe(0)
  })
})
