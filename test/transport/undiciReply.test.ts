import { Dispatcher } from 'undici'
import { describe, expect, it } from 'vitest'
import { AbortSwitch, type AbortSignalLike } from '../../src/transport/abort.js'
import type { TransportResponse } from '../../src/transport/types.js'
import { undiciTransport } from '../../src/transport/undiciTransport.js'

// The Node transport's handler, driven by hand through a stand-in dispatcher:
// when it pauses and resumes the socket, and what it does with aborts, at
// every step, with no network.

type Handler = Required<Pick<Dispatcher.DispatchHandler, 'onRequestStart' | 'onResponseStart' | 'onResponseData' | 'onResponseEnd' | 'onResponseError'>>

/** undici's controller of one request, as undici's own behaves: `resume` acts only when paused, `abort` only once. Every call to `abort` is kept in `aborts`. */
class StandInController implements Dispatcher.DispatchController {
  paused = false
  aborted = false
  reason: Error | null = null
  resumes = 0
  readonly aborts: Error[] = []
  constructor(private readonly onAbort?: (reason: Error) => void) {}
  pause(): void {
    this.paused = true
  }
  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.resumes++
  }
  abort(reason: Error): void {
    this.aborts.push(reason)
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    this.onAbort?.(reason)
  }
}

/** A dispatcher of the library's own undici that keeps what it is given: the options and the handler. */
function standIn() {
  const dispatched: { options: Dispatcher.DispatchOptions; handler: Handler }[] = []
  class StandIn extends Dispatcher {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      dispatched.push({ options, handler: handler as Handler })
      return true
    }
  }
  return { dispatcher: new StandIn(), dispatched }
}

/**
 * One request through the stand-in, its handler started: `aborts` holds what
 * the handler aborted undici with. `data` and `complete` stand for undici
 * giving the body's bytes and its end; `data` answers, as undici reads it,
 * whether the socket may go on (false: the handler paused it).
 */
function exchange(url = 'http://gateway.test/v1/tasks/7?x=1', signal: AbortSignalLike = new AbortSwitch()) {
  const { dispatcher, dispatched } = standIn()
  const reply = undiciTransport({ dispatcher })({ method: 'GET', url, headers: { accept: 'application/json' }, signal })
  const { options, handler } = dispatched[0]!
  // As undici does: the first abort before the end fails the handler at once; any later one does nothing more.
  let over = false
  const controller = new StandInController((reason) => {
    if (over) return
    over = true
    handler.onResponseError(controller, reason)
  })
  handler.onRequestStart(controller, {})
  const answer = (status = 200, headers: Record<string, string | string[] | undefined> = {}): void => handler.onResponseStart(controller, status, headers, 'OK')
  const data = (chunk: Buffer): boolean => {
    handler.onResponseData(controller, chunk)
    return !controller.paused
  }
  const complete = (): void => {
    over = true
    handler.onResponseEnd(controller, {})
  }
  const fail = (error: Error): void => handler.onResponseError(controller, error)
  return { reply, options, handler, aborts: controller.aborts, signal, answer, data, complete, fail, resumes: () => controller.resumes }
}

/** {@link exchange}, answered 200 with no headers, and its reply. */
async function answered(url?: string, signal?: AbortSignalLike) {
  const ex = exchange(url, signal)
  ex.answer()
  return { ...ex, res: await ex.reply }
}

const kb = (n: number, fill = 0x61) => Buffer.alloc(n * 1024, fill)

describe('the Node transport handler, step by step', () => {
  it('dispatches the origin, the path with its query, the method, headers and body it was given', () => {
    const { options } = exchange()
    expect(options).toMatchObject({ origin: 'http://gateway.test', path: '/v1/tasks/7?x=1', method: 'GET', headers: { accept: 'application/json' }, body: undefined })
  })

  it("offers undici its current handler hooks and none of the deprecated ones", () => {
    const { handler } = exchange()
    for (const hook of ['onRequestStart', 'onResponseStart', 'onResponseData', 'onResponseEnd', 'onResponseError']) expect(typeof handler[hook as keyof Handler], hook).toBe('function')
    for (const hook of ['onConnect', 'onHeaders', 'onData', 'onComplete', 'onError', 'onUpgrade']) expect(hook in handler, hook).toBe(false)
  })

  it('waits past 1xx answers for the final status', async () => {
    const { reply, answer } = exchange()
    let settled = false
    void reply.then(() => (settled = true))
    answer(103, { link: '</style.css>; rel=preload' })
    await Promise.resolve()
    expect(settled).toBe(false)
    answer(200, { 'retry-after': '2' })
    const res = await reply
    expect(res.status).toBe(200)
    expect(res.header('retry-after')).toBe('2')
  })

  it('holds an unread body until 64 KB wait, then pauses the socket; taking chunks resumes it', async () => {
    const { res, data, complete, resumes } = await answered()
    expect(data(kb(32))).toBe(true)
    expect(data(kb(31))).toBe(true)
    expect(data(kb(1))).toBe(false)
    const chunks = res.body[Symbol.asyncIterator]()
    expect((await chunks.next()).value).toHaveLength(32 * 1024)
    expect(resumes()).toBe(1)
    // Not paused any more: the next chunk taken does not resume it again.
    expect((await chunks.next()).value).toHaveLength(31 * 1024)
    expect(resumes()).toBe(1)
    complete()
    expect((await chunks.next()).value).toHaveLength(1024)
    expect(await chunks.next()).toEqual({ done: true, value: undefined })
  })

  it('wakes a reader waiting for the next chunk, and resumes a socket paused before it asked', async () => {
    const { res, data, resumes } = await answered()
    expect(data(kb(64))).toBe(false)
    const chunks = res.body[Symbol.asyncIterator]()
    expect((await chunks.next()).value).toHaveLength(64 * 1024)
    expect(resumes()).toBe(1)
    const waiting = chunks.next()
    expect(data(Buffer.from('late'))).toBe(true)
    expect(Buffer.from((await waiting).value!).toString()).toBe('late')
  })

  it('gives a failure to a waiting reader after the chunks that came before it', async () => {
    const { res, data, fail } = await answered()
    data(Buffer.from('before'))
    fail(new Error('socket hang up'))
    const chunks = res.body[Symbol.asyncIterator]()
    expect(Buffer.from((await chunks.next()).value!).toString()).toBe('before')
    await expect(chunks.next()).rejects.toThrow('socket hang up')
  })

  it('reads a text body whatever its size, never pausing, resuming a socket paused before', async () => {
    const { res, data, complete, resumes } = await answered()
    expect(data(kb(64, 0x62))).toBe(false)
    const text = res.text()
    expect(resumes()).toBe(1)
    expect(data(kb(100, 0x63))).toBe(true)
    complete()
    expect(await text).toBe('b'.repeat(64 * 1024) + 'c'.repeat(100 * 1024))
  })

  it('cuts text at the limit, even when the bytes already held pass it: aborts the request and says it is not whole', async () => {
    const { res, data, aborts } = await answered()
    data(Buffer.from('0123456789'))
    expect(await res.textUpTo!(4)).toEqual({ text: '0123', whole: false })
    expect(aborts).toHaveLength(1)
  })

  it('reads text of exactly the limit whole; one byte more is cut', async () => {
    const first = exchange()
    first.answer()
    const whole = (await first.reply).textUpTo!(6)
    first.data(Buffer.from('abc'))
    first.data(Buffer.from('def'))
    first.complete()
    expect(await whole).toEqual({ text: 'abcdef', whole: true })
    expect(first.aborts).toEqual([])

    const second = exchange()
    second.answer()
    const cut = (await second.reply).textUpTo!(6)
    second.data(Buffer.from('abc'))
    second.data(Buffer.from('defg'))
    expect(await cut).toEqual({ text: 'abcdef', whole: false })
    expect(second.aborts).toHaveLength(1)
  })

  it('rejects text asked for after the body failed, and a read asked for after it ended resolves with what was held', async () => {
    const failed = await answered()
    failed.fail(new Error('reset'))
    await expect(failed.res.text()).rejects.toThrow('reset')

    const ended = await answered()
    ended.data(Buffer.from('all of it'))
    ended.complete()
    const seen: string[] = []
    await ended.res.read!((c) => seen.push(Buffer.from(c).toString()))
    expect(seen).toEqual(['all of it'])
  })

  it('pushes held chunks first, then each one as it comes, never pausing; a reader that throws stops the request with its error', async () => {
    const { res, data, aborts } = await answered()
    data(kb(64))
    const seen: number[] = []
    const reading = res.read!((c) => {
      if (c.byteLength === 3) throw new Error('reader broke')
      seen.push(c.byteLength)
    })
    expect(data(kb(1))).toBe(true)
    expect(seen).toEqual([64 * 1024, 1024])
    data(Buffer.from('bad'))
    await expect(reading).rejects.toThrow('reader broke')
    expect(aborts.map((a) => a.message)).toEqual(['reader broke'])
  })

  it('rejects the request with the abort reason before the answer, and aborts undici with it', async () => {
    const signal = new AbortSwitch()
    const { reply, aborts } = exchange(undefined, signal)
    const why = new Error('timed out')
    signal.abort(why)
    await expect(reply).rejects.toBe(why)
    expect(aborts).toEqual([why])
  })

  it('an abort with no reason (the subscriber left) rejects with undici’s RequestAbortedError', async () => {
    const signal = new AbortSwitch()
    const { reply } = exchange(undefined, signal)
    signal.abort()
    await expect(reply).rejects.toMatchObject({ code: 'UND_ERR_ABORTED' })
  })

  it('an abort before undici connects the handler aborts it as it connects', async () => {
    const { dispatcher, dispatched } = standIn()
    const signal = new AbortSwitch()
    const reply = undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/', headers: {}, signal })
    const why = new Error('left early')
    signal.abort(why)
    await expect(reply).rejects.toBe(why)
    const controller = new StandInController()
    dispatched[0]!.handler.onRequestStart(controller, {})
    expect(controller.aborts).toEqual([why])
  })

  it('fails a body being read when the signal aborts, and forgets the signal once the reader has had the whole body', async () => {
    const signal = new AbortSwitch()
    const { res, aborts } = await answered(undefined, signal)
    const reading = res.read!(() => {})
    signal.abort(new Error('stop'))
    await expect(reading).rejects.toThrow('stop')
    expect(aborts).toHaveLength(1)

    const later = new AbortSwitch()
    const done = await answered(undefined, later)
    done.data(Buffer.from('all'))
    done.complete()
    expect(await done.res.text()).toBe('all')
    later.abort(new Error('too late'))
    expect(done.aborts).toEqual([])
  })

  it('fails a body that has arrived but is not read yet when the signal aborts', async () => {
    for (const readIt of [(r: TransportResponse) => r.text(), (r: TransportResponse) => r.read!(() => {}), (r: TransportResponse) => r.body[Symbol.asyncIterator]().next()]) {
      const signal = new AbortSwitch()
      const { res, data, complete } = await answered(undefined, signal)
      data(Buffer.from('held'))
      complete()
      signal.abort(new Error('not wanted any more'))
      await expect(readIt(res)).rejects.toThrow('not wanted any more')
    }
  })

  it('an abort drops the chunks held for a pulled body: the next read fails at once', async () => {
    const signal = new AbortSwitch()
    const { res, data } = await answered(undefined, signal)
    data(Buffer.from('held'))
    signal.abort(new Error('stop now'))
    await expect(res.body[Symbol.asyncIterator]().next()).rejects.toThrow('stop now')
  })

  it('drops bytes that still arrive after the body failed', async () => {
    const signal = new AbortSwitch()
    const { res, data } = await answered(undefined, signal)
    signal.abort(new Error('stopped'))
    data(Buffer.from('late'))
    await expect(res.body[Symbol.asyncIterator]().next()).rejects.toThrow('stopped')
  })

  it('sends nothing for a signal aborted before the call', async () => {
    const { dispatcher, dispatched } = standIn()
    const signal = new AbortSwitch()
    signal.abort(new Error('already gone'))
    await expect(undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/', headers: {}, signal })).rejects.toThrow('already gone')
    expect(dispatched).toEqual([])
  })

  it('rejects with what a dispatcher throws instead of calling onResponseError, and forgets the signal', async () => {
    const broken = new Error('interceptor broke')
    const dispatcher = {
      dispatch: () => {
        throw broken
      },
    } as unknown as Dispatcher
    const signal = new AbortSwitch()
    await expect(undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/', headers: {}, signal })).rejects.toBe(broken)
    expect((signal as unknown as { listener?: unknown }).listener).toBeUndefined()
  })

  it('stops a pulled body its reader leaves, once; leaving after the end aborts nothing', async () => {
    const open = exchange()
    open.answer()
    const chunks = (await open.reply).body[Symbol.asyncIterator]()
    expect(await chunks.return!()).toEqual({ done: true, value: undefined })
    expect(open.aborts).toHaveLength(1)
    expect(open.aborts[0]).toMatchObject({ code: 'UND_ERR_ABORTED' })

    const ended = exchange()
    ended.answer()
    const after = (await ended.reply).body[Symbol.asyncIterator]()
    ended.complete()
    await after.return!()
    expect(ended.aborts).toEqual([])
  })

  it('resumes a paused socket only once fewer than 64 KB wait unread', async () => {
    const { res, data, resumes } = await answered()
    data(kb(32))
    expect(data(kb(32))).toBe(false)
    expect(data(kb(32))).toBe(false)
    const chunks = res.body[Symbol.asyncIterator]()
    await chunks.next()
    // 64 KB still wait: still paused.
    expect(resumes()).toBe(0)
    await chunks.next()
    expect(resumes()).toBe(1)
  })

  it('asks nothing of a socket it never paused', async () => {
    const text = exchange()
    text.answer()
    const reading = (await text.reply).text()
    const pulled = exchange()
    pulled.answer()
    const waiting = (await pulled.reply).body[Symbol.asyncIterator]().next()
    text.data(Buffer.from('x'))
    text.complete()
    pulled.complete()
    expect(await reading).toBe('x')
    expect(await waiting).toEqual({ done: true, value: undefined })
    expect(text.resumes() + pulled.resumes()).toBe(0)
  })

  it('ends a reader waiting for the next chunk when the body ends', async () => {
    const { reply, complete, answer } = exchange()
    answer()
    const chunks = (await reply).body[Symbol.asyncIterator]()
    const waiting = chunks.next()
    complete()
    expect(await waiting).toEqual({ done: true, value: undefined })
  })

  it('keeps the first failure, and none after the body ended', async () => {
    const failed = await answered()
    failed.fail(new Error('first'))
    failed.fail(new Error('second'))
    await expect(failed.res.text()).rejects.toThrow('first')

    const ended = await answered()
    ended.data(Buffer.from('whole'))
    ended.complete()
    ended.fail(new Error('after the end'))
    expect(await ended.res.text()).toBe('whole')
  })

  it('rejects a push read asked for after the body failed, after handing it what was held', async () => {
    const { res, data, fail } = await answered()
    data(Buffer.from('held'))
    fail(new Error('cut'))
    const seen: string[] = []
    await expect(res.read!((c) => seen.push(Buffer.from(c).toString()))).rejects.toThrow('cut')
    expect(seen).toEqual(['held'])
  })

  it('a reader that throws on a chunk held for it stops the request with its error', async () => {
    const { res, data, aborts } = await answered()
    data(Buffer.from('held'))
    await expect(
      res.read!(() => {
        throw new Error('no thanks')
      }),
    ).rejects.toThrow('no thanks')
    expect(aborts.map((a) => a.message)).toEqual(['no thanks'])
  })

  it('listens to a real AbortSignal, and stops listening once the body is done with', async () => {
    const before = new AbortController()
    const early = exchange(undefined, before.signal)
    before.abort(new Error('gone'))
    await expect(early.reply).rejects.toThrow('gone')

    for (const finish of ['complete', 'error', 'leave'] as const) {
      const controller = new AbortController()
      const { res, complete, fail, aborts } = await answered(undefined, controller.signal)
      if (finish === 'complete') {
        complete()
        await res.text()
      }
      if (finish === 'error') fail(new Error('reset'))
      if (finish === 'leave') await res.body[Symbol.asyncIterator]().return!()
      const abortsBefore = aborts.length
      controller.abort(new Error('too late'))
      expect(aborts).toHaveLength(abortsBefore)
    }
  })

  it('takes header names in any case, as a handler composed into the dispatcher may give them, joining names that differ only in case', async () => {
    const { reply, answer } = exchange()
    answer(200, { 'Content-Length': '12', 'X-Seen': 'one', 'x-seen': 'two' })
    const res = await reply
    expect(res.header('content-length')).toBe('12')
    expect(res.header('x-seen')).toBe('one, two')
  })

  it('joins the values of a header given as a list; a name without a value, or one an object inherits, is no header', async () => {
    const { reply, answer } = exchange()
    answer(200, { 'set-cookie': ['a=1', 'b=2'], 'x-text': 'plain', 'x-none': undefined })
    const res = await reply
    expect(res.header('set-cookie')).toBe('a=1, b=2')
    expect(res.header('x-text')).toBe('plain')
    expect(res.header('x-none')).toBeUndefined()
    expect(res.header('constructor')).toBeUndefined()
  })
})
