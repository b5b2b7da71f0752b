import { Observable, Subject, from } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { isBufferOverflowError, type BufferOverflowError } from '../../src/errors/BufferOverflowError.js'
import { iterate, toAsyncIterable } from '../../src/pipeline/toAsyncIterable.js'

/** A source that emits `count` values synchronously while subscribing and never completes; it records subscriptions and teardowns. */
function eager(count: number) {
  const state = { subscribed: 0, tornDown: 0 }
  const source$ = new Observable<number>((subscriber) => {
    state.subscribed++
    for (let i = 1; i <= count && !subscriber.closed; i++) subscriber.next(i)
    return () => void state.tornDown++
  })
  return { source$, state }
}

async function collect<T>(it: AsyncIterable<T>): Promise<{ values: T[]; error?: unknown }> {
  const values: T[] = []
  try {
    for await (const value of it) values.push(value)
  } catch (error) {
    return { values, error }
  }
  return { values }
}

describe('the iterator over an Observable', () => {
  it('subscribes once, however many next() calls wait for the first value', async () => {
    let subscribed = 0
    const subject = new Subject<number>()
    const it = toAsyncIterable(new Observable<number>((s) => (subscribed++, subject.subscribe(s))))
    const first = it.next()
    const second = it.next()
    const third = it.next()
    expect(subscribed).toBe(1)
    subject.next(1)
    subject.next(2)
    subject.complete()
    expect(await Promise.all([first, second, third])).toEqual([
      { value: 1, done: false },
      { value: 2, done: false },
      { value: undefined, done: true },
    ])
    expect(subscribed).toBe(1)
  })

  it('rejects a waiting next() with the source’s own error, then is done', async () => {
    const subject = new Subject<number>()
    const it = toAsyncIterable(subject)
    const waiting = it.next()
    const later = it.next()
    const failure = new Error('boom')
    subject.error(failure)
    await expect(waiting).rejects.toBe(failure)
    expect(await later).toEqual({ value: undefined, done: true })
    expect(await it.next()).toEqual({ value: undefined, done: true })
  })

  it('throws the very error the source sent, after the values before it', async () => {
    const failure = new RangeError('boom')
    const it = toAsyncIterable(new Observable<number>((s) => (s.next(1), s.error(failure))))
    expect(await collect(it)).toEqual({ values: [1], error: failure })
  })

  it("overflow while subscribing (a synchronous source): the values that fit, then BufferOverflowError; the source's completion does not hide it", async () => {
    const { values, error } = await collect(toAsyncIterable(from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), { highWaterMark: 3 }))
    expect(values).toEqual([1, 2, 3, 4])
    expect(isBufferOverflowError(error) && error.highWaterMark).toBe(3)
  })

  it('unsubscribes a source that overflowed while subscribing, once it returns', async () => {
    const { source$, state } = eager(10)
    const it = toAsyncIterable(source$, { highWaterMark: 2 })
    expect(await it.next()).toEqual({ value: 1, done: false })
    expect(state).toEqual({ subscribed: 1, tornDown: 1 })
    expect(it.buffered).toBe(2)
  })

  it('tells onOverflow once, at the overflow, even when the source goes on emitting while subscribing', async () => {
    const { source$ } = eager(10)
    const told: BufferOverflowError[] = []
    const it = iterate(source$, { highWaterMark: 2 }, (error) => told.push(error))
    void it.next()
    expect(told).toHaveLength(1)
    expect(told[0]!.highWaterMark).toBe(2)
    expect(await collect(it)).toEqual({ values: [2, 3], error: told[0] })
  })

  it('delivers every value in order through a long run of buffered values', async () => {
    const subject = new Subject<number>()
    const it = toAsyncIterable(subject, { highWaterMark: 5_000 })
    const seen: number[] = []
    const first = it.next()
    for (let i = 0; i < 5_000; i++) subject.next(i)
    seen.push((await first).value as number)
    for (let i = 0; i < 3_000; i++) seen.push((await it.next()).value as number)
    for (let i = 5_000; i < 8_000; i++) subject.next(i)
    subject.complete()
    for await (const n of it) seen.push(n)
    expect(seen).toEqual(Array.from({ length: 8_000 }, (_, i) => i))
  })
})
