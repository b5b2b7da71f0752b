const DONE: IteratorResult<never> = { value: undefined, done: true }

/**
 * An async iterator over an async or a plain iterable, so a pipeline stage
 * takes a Node `Readable`, an async generator or an array alike. Nothing is
 * read until its first `next()`; `return()` closes the underlying iterator
 * (a generator runs its `finally`).
 *
 * @example
 * ```ts
 * const inputs = iteratorOf(['a', 'b'])
 * console.log(await inputs.next(), await inputs.return!())
 * // Output: { value: 'a', done: false } { value: undefined, done: true }
 * ```
 */
export function iteratorOf<I>(source: AsyncIterable<I> | Iterable<I>): AsyncIterator<I> {
  const open = (source as Partial<AsyncIterable<I>>)[Symbol.asyncIterator]
  if (typeof open === 'function') return open.call(source)
  const iterator = (source as Iterable<I>)[Symbol.iterator]()
  return {
    next: async () => iterator.next(),
    return: async () => iterator.return?.() ?? DONE,
  }
}
