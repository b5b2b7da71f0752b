import { EmptyError, from, Subscription, type ObservableInput } from 'rxjs'
import type { AbortSignalLike } from '../transport/abort.js'
import { iteratorOf } from './iteratorOf.js'

interface Waiter<R> { resolve: (result: IteratorResult<R>) => void; reject: (error: unknown) => void }
const DONE: IteratorResult<never> = { value: undefined, done: true }

/** What {@link pullCalls} runs: the checked options of `mapConcurrent`. */
export interface PullSettings<I, R> {
  readonly project: (input: I, index: number) => ObservableInput<R>
  readonly concurrency: number
  readonly ordered: boolean
}

/**
 * The engine of `mapConcurrent`: an async iterator that starts one call per
 * input, each holding its place from its start until the consumer takes its
 * result, and never more than `concurrency` places at once. Places are
 * filled only inside `next()`, so calls started ≤ results taken +
 * `concurrency` at every moment, and the source is read one input per call
 * started. The first error (of a call, of the source, or `signal`'s abort)
 * unsubscribes every call in flight and closes the source; so does `return()`.
 *
 * @example
 * ```ts
 * const results = pullCalls(['a', 'b'], { project: (s) => of(s.toUpperCase()), concurrency: 2, ordered: true })
 * for await (const r of results) console.log(r)
 * // Output:
 * // A
 * // B
 * ```
 */
export function pullCalls<I, R>(source: AsyncIterable<I> | Iterable<I>, settings: PullSettings<I, R>, signal?: AbortSignalLike): AsyncIterableIterator<R> {
  const { project, concurrency, ordered } = settings
  const calls = new Subscription() // every call in flight; a call that ends leaves it by itself
  // Results not yet taken, by the order they are due in: the input's index
  // (ordered), or the order they finished in. Either way the next one due has
  // key `taken`, since each input gives exactly one result.
  const results = new Map<number, R>()
  const waiters: Waiter<R>[] = []
  let inputs: AsyncIterator<I> | undefined // opened at the first next(): making the iterable reads nothing
  let started = 0
  let finished = 0
  let taken = 0
  let reading = false
  let sourceDone = false
  let open = true
  let failure: { error: unknown } | undefined

  // Gives waiting consumers the results that are due, and ends the iteration once the last is taken.
  const deliver = () => {
    while (waiters.length > 0 && results.has(taken)) {
      const value = results.get(taken)!
      results.delete(taken++)
      waiters.shift()!.resolve({ value, done: false })
    }
    if (open && sourceDone && taken === started) stop()
    // A consumer that asked for several results at once still waits: the place just freed is its room.
    // Once the source is done there is nothing to fill it with (and fill, which ends here, would come straight back).
    else if (waiters.length > 0 && !sourceDone && started - taken < concurrency) void fill()
  }

  // Unsubscribes every call, closes the source (unless it ended), drops untaken results.
  const stop = () => {
    if (!open) return
    open = false
    calls.unsubscribe()
    results.clear()
    signal?.removeEventListener('abort', onAbort)
    if (!sourceDone) {
      sourceDone = true
      // Not awaited: a source may be waiting for its next input, and its return() for that.
      Promise.resolve(inputs?.return?.()).catch(() => {})
    }
    for (const w of waiters.splice(0)) w.resolve(DONE)
  }

  function fail(error: unknown): void {
    if (!open) return
    const waiter = waiters.shift()
    if (waiter) waiter.reject(error)
    else failure = { error } // thrown by the next next(), once
    stop()
  }

  const start = (input: I, index: number) => {
    let last: { value: R } | undefined
    try {
      calls.add(
        from(project(input, index)).subscribe({
          next: (value) => (last = { value }),
          error: fail,
          complete: () => {
            // One result per input: an empty call is an error, as with lastValueFrom.
            if (!last) return fail(new EmptyError())
            results.set(ordered ? index : finished++, last.value)
            deliver()
          },
        }),
      )
    } catch (error) {
      fail(error) // project threw, or returned something that is not an ObservableInput
    }
  }

  // Reads and starts while places are free; one read at a time, so the reservation is that one read.
  const fill = async () => {
    if (reading) return
    reading = true
    try {
      while (open && !sourceDone && started - taken < concurrency) {
        inputs ??= iteratorOf(source)
        const next = await inputs.next()
        if (!open) break // closed while reading: that input is never projected
        if (next.done) sourceDone = true
        else start(next.value, started++)
      }
    } catch (error) {
      sourceDone = true // a source that threw is over: nothing to close
      fail(error)
    } finally {
      reading = false
    }
    deliver()
  }

  // A pipeline destroyed while this waits for a call aborts its signal: end at once, not at the next value.
  const onAbort = () => fail(signal?.reason ?? new Error('The pipeline was aborted.'))
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })

  return {
    [Symbol.asyncIterator]() {
      return this
    },
    next() {
      if (failure) {
        const { error } = failure
        failure = undefined
        return Promise.reject(error)
      }
      if (!open) return Promise.resolve(DONE)
      const result = new Promise<IteratorResult<R>>((resolve, reject) => waiters.push({ resolve, reject }))
      deliver()
      void fill() // asked for a value: that is the room to start calls in
      return result
    },
    return() {
      failure = undefined
      stop()
      return Promise.resolve(DONE)
    },
  }
}
