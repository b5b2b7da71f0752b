import { setImmediate as nextTurn } from 'node:timers/promises'
import { Observable, Subject, from, lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { isBufferOverflowError } from '../../src/errors/BufferOverflowError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { toAsyncIterable } from '../../src/pipeline/toAsyncIterable.js'
import { responses$ } from '../../src/responses$.js'
import { KEY } from '../helpers/fixtures.js'
import { within } from '../helpers/server.js'
import { bigStreamServer } from '../node/streamServer.js'

/** A Subject that counts its subscribers, to see subscription and unsubscription. */
function counted<T>() {
  const subject = new Subject<T>()
  const state = { subscribed: 0, unsubscribed: 0 }
  const source$ = new Observable<T>((subscriber) => {
    state.subscribed++
    const inner = subject.subscribe(subscriber)
    return () => {
      state.unsubscribed++
      inner.unsubscribe()
    }
  })
  return { subject, source$, state }
}

describe('toAsyncIterable', () => {
  it('subscribes at the first next(), not before; values come in order; completion ends the loop', async () => {
    const { subject, source$, state } = counted<number>()
    const it = toAsyncIterable(source$)
    expect(state.subscribed).toBe(0)
    const first = it.next()
    expect(state.subscribed).toBe(1)
    subject.next(1)
    subject.next(2)
    subject.next(3)
    subject.complete()
    expect(await first).toEqual({ value: 1, done: false })
    expect(it.buffered).toBe(2)
    const rest: number[] = []
    for await (const n of it) rest.push(n)
    expect(rest).toEqual([2, 3])
    expect(await it.next()).toEqual({ value: undefined, done: true })
  })

  it('the source error is thrown after the values before it, once', async () => {
    const it = toAsyncIterable(new Observable<number>((s) => (s.next(1), s.error(new Error('boom')))))
    expect(await it.next()).toEqual({ value: 1, done: false })
    await expect(it.next()).rejects.toThrow('boom')
    expect(await it.next()).toEqual({ value: undefined, done: true })
  })

  it("overflow 'error' (default): unsubscribes at the overflow, delivers what waits, then throws BufferOverflowError", async () => {
    const { subject, source$, state } = counted<number>()
    const it = toAsyncIterable(source$, { highWaterMark: 3 })
    const first = it.next()
    for (let i = 1; i <= 10; i++) subject.next(i)
    expect(state.unsubscribed).toBe(1) // at value 5: 1 went to the waiting next(), 2-4 filled the buffer
    expect(it.buffered).toBe(3)
    expect((await first).value).toBe(1)
    const seen: number[] = []
    const error = await (async () => {
      try {
        for await (const n of it) seen.push(n)
      } catch (e) {
        return e
      }
    })()
    expect(seen).toEqual([2, 3, 4])
    expect(isBufferOverflowError(error) && error.highWaterMark).toBe(3)
  })

  it("overflow 'drop-oldest': keeps the newest highWaterMark values and counts the rest", async () => {
    const it = toAsyncIterable(from([1, 2, 3, 4, 5, 6]), { highWaterMark: 2, overflow: 'drop-oldest' })
    const first = await it.next() // subscribes: `from` emits all at once, the first to this next()
    expect(first.value).toBe(1)
    expect(it.dropped).toBe(3)
    const rest: number[] = []
    for await (const n of it) rest.push(n)
    expect(rest).toEqual([5, 6])
  })

  it('break unsubscribes and drops what waits; a pending next() resolves done on return()', async () => {
    const { subject, source$, state } = counted<number>()
    const it = toAsyncIterable(source$)
    const pending = it.next()
    subject.next(1)
    subject.next(2)
    for await (const n of it) {
      expect(n).toBe(2)
      break
    }
    expect(state.unsubscribed).toBe(1)
    expect(await pending).toEqual({ value: 1, done: false })
    const waiting = toAsyncIterable(source$)
    const next = waiting.next()
    await waiting.return!()
    expect(await next).toEqual({ value: undefined, done: true })
    expect(state.unsubscribed).toBe(2)
  })

  it('return() before the first next() never subscribes', async () => {
    const { source$, state } = counted<number>()
    const it = toAsyncIterable(source$)
    await it.return!()
    expect(await it.next()).toEqual({ value: undefined, done: true })
    expect(state.subscribed).toBe(0)
  })

  it('refuses a highWaterMark below 1 and an unknown policy with InvalidRequestError', () => {
    expect(() => toAsyncIterable(from([1]), { highWaterMark: 0 })).toThrow(/highWaterMark/)
    let error: unknown
    try {
      toAsyncIterable(from([1]), { overflow: 'pause' as never })
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error)).toBe(true)
  })

  it('names each refused option and its value in one InvalidRequestError', () => {
    let error: unknown
    try {
      toAsyncIterable(from([1]), { highWaterMark: 0, overflow: 'pause' as never })
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error) && error.issues).toEqual([
      { path: 'highWaterMark', message: 'must be an integer of at least 1 (got 0)' },
      { path: 'overflow', message: `must be 'error' or 'drop-oldest' (got "pause")` },
    ])
    expect((error as Error).message).toBe(
      `Invalid toAsyncIterable options: highWaterMark: must be an integer of at least 1 (got 0); overflow: must be 'error' or 'drop-oldest' (got "pause"). Nothing was sent.`,
    )
  })

  it('accepts a highWaterMark of 1', async () => {
    const it = toAsyncIterable(from([1, 2]), { highWaterMark: 1 })
    const values: number[] = []
    for await (const n of it) values.push(n)
    expect(values).toEqual([1, 2])
  })

  it('RxJS from() turns it back into an Observable', async () => {
    expect(await lastValueFrom(from(toAsyncIterable(from([1, 2, 3]))).pipe(toArray()))).toEqual([1, 2, 3])
  })
})

describe('for await over a 100,000-event stream with a slow consumer (loopback gateway)', () => {
  const DELTAS = 100_000
  const TOTAL = DELTAS + 2 // created and completed around the deltas

  it("holds at most highWaterMark values ('drop-oldest'), and ends with the last events", async () => {
    const server = await bigStreamServer(DELTAS)
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    const it = toAsyncIterable(responses$(client, { model: 'm', input: 'hi', stream: true }), { highWaterMark: 100, overflow: 'drop-oldest' })
    let received = 0
    let most = 0
    let last = ''
    for await (const event of it) {
      received++
      last = String(event.type)
      most = Math.max(most, it.buffered)
      if (received % 100 === 0) await nextTurn() // slower than the socket: the buffer fills
    }
    expect(most).toBeLessThanOrEqual(100)
    expect(most).toBe(100)
    expect(it.dropped).toBeGreaterThan(0)
    expect(received + it.dropped).toBe(TOTAL)
    expect(last).toBe('response.completed')
  }, 30_000)

  it("overflow 'error': the request is aborted (the server sees the close), then BufferOverflowError", async () => {
    const server = await bigStreamServer(DELTAS)
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    const it = toAsyncIterable(responses$(client, { model: 'm', input: 'hi', stream: true }), { highWaterMark: 100 })
    let received = 0
    let most = 0
    const error = await (async () => {
      try {
        for await (const _ of it) {
          received++
          most = Math.max(most, it.buffered)
          await nextTurn()
        }
      } catch (e) {
        return e
      }
    })()
    expect(isBufferOverflowError(error)).toBe(true)
    expect(most).toBeLessThanOrEqual(100)
    expect(received).toBeLessThan(TOTAL)
    await within((await server.request(1)).closedEarly, 3_000, 'the server seeing the close')
  }, 30_000)

  it('break aborts the request: the server sees the connection close', async () => {
    const server = await bigStreamServer(DELTAS)
    const client = createClient({ baseUrl: server.url, apiKey: KEY })
    let received = 0
    for await (const _ of toAsyncIterable(responses$(client, { model: 'm', input: 'hi', stream: true }))) {
      if (++received === 10) break
    }
    const seen = await server.request(1)
    await within(seen.closedEarly, 3_000, 'the server seeing the close')
    expect(seen.aborted).toBe(true)
  }, 30_000)
})
