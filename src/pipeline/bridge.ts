import type { Observable, Unsubscribable } from 'rxjs'
import { BufferOverflowError } from '../errors/BufferOverflowError.js'

interface Waiter<T> { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }
const DONE: IteratorResult<never> = { value: undefined, done: true }

/**
 * What happens when a value arrives while `highWaterMark` values already wait:
 * - `'error'`: the source is unsubscribed at once (its request aborted); the
 *   waiting values are still delivered, then the iteration throws
 *   `BufferOverflowError`. Nothing is lost silently.
 * - `'drop-oldest'`: the oldest waiting value is dropped (counted in
 *   `dropped`) and the source goes on. For sources where the latest value
 *   says it all (statuses, progress), not for text deltas.
 *
 * There is no `'pause'`: an Observable pushes and cannot be asked to wait.
 * rxgate's stream events arrive as the gateway sends them and a task's
 * statuses as its polls answer; holding them back would need the source to
 * pull. Where pulling is real, rxgate pauses: `download$` reads no more of
 * the body until the target has taken the last chunk (so TCP slows the
 * server down).
 */
export type OverflowPolicy = 'error' | 'drop-oldest'

/** An async iterator over an Observable's values, with what its buffer holds now. */
export interface ObservableIterator<T> extends AsyncIterableIterator<T> {
  /** Values waiting for the consumer right now; never more than `highWaterMark`. */
  readonly buffered: number
  /** Values dropped so far by `overflow: 'drop-oldest'`. */
  readonly dropped: number
}

/** The iterator: values wait in a queue until asked for; requests wait in another until a value comes. */
export class Bridge<T> implements ObservableIterator<T> {
  dropped = 0
  private values: T[] = []
  private head = 0 // values before `head` were taken; the array is compacted now and then
  private readonly waiters: Waiter<T>[] = []
  private state: 'idle' | 'open' | 'ended' | 'closed' = 'idle'
  private failure: { error: unknown } | undefined
  private subscription: Unsubscribable | undefined
  private leaveAtStart = false

  constructor(
    private readonly source$: Observable<T>,
    private readonly highWaterMark: number,
    private readonly overflow: OverflowPolicy,
    private readonly onOverflow: ((error: BufferOverflowError) => void) | undefined,
  ) {}

  get buffered(): number {
    return this.values.length - this.head
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffered > 0) return Promise.resolve({ value: this.take(), done: false })
    if (this.state === 'ended' && this.failure) {
      const { error } = this.failure
      this.failure = undefined // thrown once; the iteration is over after it
      return Promise.reject(error)
    }
    if (this.state === 'ended' || this.state === 'closed') return Promise.resolve(DONE)
    const result = new Promise<IteratorResult<T>>((resolve, reject) => this.waiters.push({ resolve, reject }))
    // Subscribed after the request is queued: a source that emits at once gives its first value to it.
    if (this.state === 'idle') this.start()
    return result
  }

  return(): Promise<IteratorResult<T>> {
    if (this.state === 'idle' || this.state === 'open') this.leave()
    this.state = 'closed'
    this.values = []
    this.head = 0
    this.failure = undefined
    for (const w of this.waiters.splice(0)) w.resolve(DONE)
    return Promise.resolve(DONE)
  }

  private start(): void {
    this.state = 'open'
    const subscription = this.source$.subscribe({
      next: (value) => this.push(value),
      error: (error: unknown) => this.end({ error }),
      complete: () => this.end(undefined),
    })
    // A source that ended (or overflowed) while subscribing has no one to tell afterwards.
    if (this.leaveAtStart) subscription.unsubscribe()
    else this.subscription = subscription
  }

  private push(value: T): void {
    if (this.state !== 'open') return
    const waiter = this.waiters.shift()
    if (waiter) return waiter.resolve({ value, done: false })
    if (this.buffered < this.highWaterMark) {
      this.values.push(value)
      return
    }
    if (this.overflow === 'drop-oldest') {
      this.take()
      this.dropped++
      this.values.push(value)
      return
    }
    this.leave()
    const error = new BufferOverflowError(this.highWaterMark)
    this.end({ error })
    this.onOverflow?.(error)
  }

  private end(failure: { error: unknown } | undefined): void {
    if (this.state !== 'open') return
    this.state = 'ended'
    this.failure = failure
    // Waiters exist only while nothing is buffered: the first gets the error, if any.
    const waiters = this.waiters.splice(0)
    if (failure && waiters.length > 0) {
      this.failure = undefined
      waiters.shift()!.reject(failure.error)
    }
    for (const w of waiters) w.resolve(DONE)
  }

  private take(): T {
    const value = this.values[this.head]!
    this.values[this.head++] = undefined as T // let it be collected
    // Compact once the taken part is as large as the rest, so a long run costs O(1) per value.
    if (this.head >= 1024 && this.head * 2 >= this.values.length) {
      this.values = this.values.slice(this.head)
      this.head = 0
    }
    return value
  }

  private leave(): void {
    if (this.subscription) this.subscription.unsubscribe()
    else this.leaveAtStart = true
  }
}
