import type { ObservableInput } from 'rxjs'
import { InvalidRequestError, type RequestIssue } from '../errors/InvalidRequestError.js'
import type { AbortSignalLike } from '../transport/abort.js'
import { pullCalls } from './pullCalls.js'

/** Options of {@link mapConcurrent}. */
export interface MapConcurrentOptions {
  /** Most calls holding a place at once (an integer of at least 1). @defaultValue `4` */
  readonly concurrency?: number
  /** `true`: results in the order of their inputs. `false`: in the order the calls finish. @defaultValue `true` */
  readonly ordered?: boolean
}

const DEFAULT_CONCURRENCY = 4

/**
 * A pull-based batch stage: one call per input, `concurrency` at most at
 * once, started only as fast as the consumer takes results. It returns a
 * function of the inputs (an async iterable, such as a Node `Readable`, or
 * a plain one, such as an array) that gives the results as an async
 * iterable, for `for await` or as a `stream.pipeline` stage.
 *
 * - **Bound.** A call holds a place from its start until its result is
 *   taken; a place is filled only when the consumer asks for a result. So at
 *   every moment, calls started ≤ results taken + `concurrency`, and inputs
 *   read = calls started. In a `stream.pipeline`, results taken = lines
 *   written + what the later stages hold (a `Writable`'s
 *   `writableHighWaterMark`; a `Transform`'s two buffers).
 * - **Results.** Each input gives one result: the last value of its call.
 *   A call that completes with no value ends the iteration with RxJS's
 *   `EmptyError`, as `lastValueFrom` does. With `ordered` (the default), a
 *   finished call waits, holding its place, for those before it.
 * - **Errors.** The first error (of a call, of `project`, of the source)
 *   ends the iteration with that error; every call in flight is
 *   unsubscribed (rxgate aborts its request), the source's `return()` is
 *   called, and untaken results are dropped. To go on past failures, catch
 *   them inside the call: `catchError((err) => of({ prompt, error: err.message }))`.
 * - **Stopping.** Leaving a `for await` loop early, or a pipeline being
 *   destroyed (its `signal` aborts), unsubscribes every call in flight and
 *   closes the source the same way. Nothing is left running.
 *
 * Bad options (`concurrency` not an integer of at least 1, `ordered` not a
 * boolean, `project` not a function) throw `InvalidRequestError` here,
 * before any input is read. Each returned iterable runs once.
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs'
 * import { Readable } from 'node:stream'
 * import { pipeline } from 'node:stream/promises'
 * import { catchError, map, of } from 'rxjs'
 * import { createClient, mapConcurrent, outputText, responses$ } from 'rxgate'
 *
 * const client = createClient({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * const ask = (prompt: string) =>
 *   responses$(client, { model: 'gpt-4.1-mini', input: prompt }).pipe(
 *     outputText(),
 *     map((text) => ({ prompt, text })),
 *     catchError((err: Error) => of({ prompt, error: err.message })),
 *   )
 * await pipeline(
 *   Readable.from(['Say hi', 'Say bye']),
 *   mapConcurrent(ask, { concurrency: 8 }),
 *   async function* (results) {
 *     for await (const r of results) yield `${JSON.stringify(r)}\n`
 *   },
 *   createWriteStream('answers.jsonl'),
 * )
 * ```
 */
export function mapConcurrent<I, R>(
  project: (input: I, index: number) => ObservableInput<R>,
  options: MapConcurrentOptions = {},
): (source: AsyncIterable<I> | Iterable<I>, stage?: { readonly signal?: AbortSignalLike }) => AsyncIterableIterator<R> {
  const issues: RequestIssue[] = []
  if (typeof project !== 'function') issues.push({ path: 'project', message: `must be a function (got ${typeof project})` })
  if (typeof options !== 'object' || options === null) {
    issues.push({ path: 'options', message: `must be an object such as { concurrency: 8 } (got ${String(options)})` })
  } else {
    const { concurrency = DEFAULT_CONCURRENCY, ordered = true } = options
    if (!Number.isInteger(concurrency) || concurrency < 1) issues.push({ path: 'concurrency', message: `must be an integer of at least 1 (got ${String(concurrency)})` })
    if (typeof ordered !== 'boolean') issues.push({ path: 'ordered', message: `must be true or false (got ${JSON.stringify(ordered)})` })
  }
  if (issues.length > 0) throw new InvalidRequestError(issues, 'mapConcurrent options')
  const settings = { project, concurrency: options.concurrency ?? DEFAULT_CONCURRENCY, ordered: options.ordered ?? true }
  // The second argument is what stream.pipeline gives a function stage: its signal aborts when the pipeline is destroyed.
  return (source, stage) => {
    const iterable = source as Partial<AsyncIterable<I> & Iterable<I>> | null | undefined
    if (typeof iterable?.[Symbol.asyncIterator] !== 'function' && typeof iterable?.[Symbol.iterator] !== 'function') {
      throw new InvalidRequestError([{ path: 'source', message: 'must be an iterable or an async iterable of inputs' }], 'mapConcurrent source')
    }
    return pullCalls(source, settings, stage?.signal)
  }
}
