import type { Dispatcher } from 'undici'
import { describe, expect, it } from 'vitest'
import { AbortSwitch, type AbortSignalLike } from '../../src/transport/abort.js'
import type { TransportResponse } from '../../src/transport/types.js'
import { undiciTransport } from '../../src/transport/undiciTransport.js'

// The Node transport's handler, driven by hand through a stand-in dispatcher:
// what it answers undici (pause or go on), when it resumes the socket, and
// what it does with aborts, at every step, with no network.

type Handler = Required<Pick<Dispatcher.DispatchHandler, 'onConnect' | 'onHeaders' | 'onData' | 'onComplete' | 'onError'>>

/** A dispatcher that keeps what it is given: the options and the handler. */
function standIn() {
  const dispatched: { options: Dispatcher.DispatchOptions; handler: Handler }[] = []
  const dispatcher = { dispatch: (options: Dispatcher.DispatchOptions, handler: Handler) => dispatched.push({ options, handler }) > 0 } as unknown as Dispatcher
  return { dispatcher, dispatched }
}

/** One request through the stand-in, its handler connected: `abortedWith` holds what the handler aborted undici with. */
function exchange(url = 'http://gateway.test/v1/tasks/7?x=1', signal: AbortSignalLike = new AbortSwitch()) {
  const { dispatcher, dispatched } = standIn()
  const reply = undiciTransport({ dispatcher })({ method: 'GET', url, headers: { accept: 'application/json' }, signal })
  const { options, handler } = dispatched[0]!
  const aborts: Error[] = []
  // As undici does: the first abort before the end fails the handler at once; any later one does nothing more.
  let over = false
  handler.onConnect((reason?: Error) => {
    aborts.push(reason!)
    if (over) return
    over = true
    handler.onError(reason!)
  })
  const end = handler.onComplete.bind(handler)
  handler.onComplete = (trailers) => {
    over = true
    end(trailers)
  }
  let resumed = 0
  const answer = (status = 200, raw: Buffer[] = []): boolean => handler.onHeaders(status, raw, () => resumed++, 'OK')
  return { reply, options, handler, aborts, signal, answer, resumes: () => resumed }
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

  it('waits past 1xx answers for the final status', async () => {
    const { reply, answer } = exchange()
    let settled = false
    void reply.then(() => (settled = true))
    expect(answer(103)).toBe(true)
    await Promise.resolve()
    expect(settled).toBe(false)
    answer(200, [Buffer.from('Retry-After'), Buffer.from('2')])
    const res = await reply
    expect(res.status).toBe(200)
    expect(res.header('retry-after')).toBe('2')
  })

  it('holds an unread body until 64 KB wait, then pauses the socket; taking chunks resumes it', async () => {
    const { res, handler, resumes } = await answered()
    expect(handler.onData(kb(32))).toBe(true)
    expect(handler.onData(kb(31))).toBe(true)
    expect(handler.onData(kb(1))).toBe(false)
    const chunks = res.body[Symbol.asyncIterator]()
    expect((await chunks.next()).value).toHaveLength(32 * 1024)
    expect(resumes()).toBe(1)
    // Not paused any more: the next chunk taken does not resume it again.
    expect((await chunks.next()).value).toHaveLength(31 * 1024)
    expect(resumes()).toBe(1)
    handler.onComplete([])
    expect((await chunks.next()).value).toHaveLength(1024)
    expect(await chunks.next()).toEqual({ done: true, value: undefined })
  })

  it('wakes a reader waiting for the next chunk, and resumes a socket paused before it asked', async () => {
    const { res, handler, resumes } = await answered()
    expect(handler.onData(kb(64))).toBe(false)
    const chunks = res.body[Symbol.asyncIterator]()
    expect((await chunks.next()).value).toHaveLength(64 * 1024)
    expect(resumes()).toBe(1)
    const waiting = chunks.next()
    expect(handler.onData(Buffer.from('late'))).toBe(true)
    expect(Buffer.from((await waiting).value!).toString()).toBe('late')
  })

  it('gives a failure to a waiting reader after the chunks that came before it', async () => {
    const { res, handler } = await answered()
    handler.onData(Buffer.from('before'))
    handler.onError(new Error('socket hang up'))
    const chunks = res.body[Symbol.asyncIterator]()
    expect(Buffer.from((await chunks.next()).value!).toString()).toBe('before')
    await expect(chunks.next()).rejects.toThrow('socket hang up')
  })

  it('reads a text body whatever its size, never pausing, resuming a socket paused before', async () => {
    const { res, handler, resumes } = await answered()
    expect(handler.onData(kb(64, 0x62))).toBe(false)
    const text = res.text()
    expect(resumes()).toBe(1)
    expect(handler.onData(kb(100, 0x63))).toBe(true)
    handler.onComplete([])
    expect(await text).toBe('b'.repeat(64 * 1024) + 'c'.repeat(100 * 1024))
  })

  it('cuts text at the limit, even when the bytes already held pass it: aborts the request and says it is not whole', async () => {
    const { res, handler, aborts } = await answered()
    handler.onData(Buffer.from('0123456789'))
    expect(await res.textUpTo!(4)).toEqual({ text: '0123', whole: false })
    expect(aborts).toHaveLength(1)
  })

  it('reads text of exactly the limit whole; one byte more is cut', async () => {
    const first = exchange()
    first.answer()
    const whole = (await first.reply).textUpTo!(6)
    first.handler.onData(Buffer.from('abc'))
    first.handler.onData(Buffer.from('def'))
    first.handler.onComplete([])
    expect(await whole).toEqual({ text: 'abcdef', whole: true })
    expect(first.aborts).toEqual([])

    const second = exchange()
    second.answer()
    const cut = (await second.reply).textUpTo!(6)
    second.handler.onData(Buffer.from('abc'))
    second.handler.onData(Buffer.from('defg'))
    expect(await cut).toEqual({ text: 'abcdef', whole: false })
    expect(second.aborts).toHaveLength(1)
  })

  it('rejects text asked for after the body failed, and a read asked for after it ended resolves with what was held', async () => {
    const failed = await answered()
    failed.handler.onError(new Error('reset'))
    await expect(failed.res.text()).rejects.toThrow('reset')

    const ended = await answered()
    ended.handler.onData(Buffer.from('all of it'))
    ended.handler.onComplete([])
    const seen: string[] = []
    await ended.res.read!((c) => seen.push(Buffer.from(c).toString()))
    expect(seen).toEqual(['all of it'])
  })

  it('pushes held chunks first, then each one as it comes, never pausing; a reader that throws stops the request with its error', async () => {
    const { res, handler, aborts } = await answered()
    handler.onData(kb(64))
    const seen: number[] = []
    const reading = res.read!((c) => {
      if (c.byteLength === 3) throw new Error('reader broke')
      seen.push(c.byteLength)
    })
    expect(handler.onData(kb(1))).toBe(true)
    expect(seen).toEqual([64 * 1024, 1024])
    handler.onData(Buffer.from('bad'))
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
    const aborts: unknown[] = []
    dispatched[0]!.handler.onConnect((reason?: Error) => void aborts.push(reason))
    expect(aborts).toEqual([why])
  })

  it('fails a body being read when the signal aborts, and forgets the signal once the reader has had the whole body', async () => {
    const signal = new AbortSwitch()
    const { res, handler, aborts } = await answered(undefined, signal)
    const reading = res.read!(() => {})
    signal.abort(new Error('stop'))
    await expect(reading).rejects.toThrow('stop')
    expect(aborts).toHaveLength(1)

    const later = new AbortSwitch()
    const done = await answered(undefined, later)
    done.handler.onData(Buffer.from('all'))
    done.handler.onComplete([])
    expect(await done.res.text()).toBe('all')
    later.abort(new Error('too late'))
    expect(done.aborts).toEqual([])
  })

  it('fails a body that has arrived but is not read yet when the signal aborts', async () => {
    for (const readIt of [(r: TransportResponse) => r.text(), (r: TransportResponse) => r.read!(() => {}), (r: TransportResponse) => r.body[Symbol.asyncIterator]().next()]) {
      const signal = new AbortSwitch()
      const { res, handler } = await answered(undefined, signal)
      handler.onData(Buffer.from('held'))
      handler.onComplete([])
      signal.abort(new Error('not wanted any more'))
      await expect(readIt(res)).rejects.toThrow('not wanted any more')
    }
  })

  it('an abort drops the chunks held for a pulled body: the next read fails at once', async () => {
    const signal = new AbortSwitch()
    const { res, handler } = await answered(undefined, signal)
    handler.onData(Buffer.from('held'))
    signal.abort(new Error('stop now'))
    await expect(res.body[Symbol.asyncIterator]().next()).rejects.toThrow('stop now')
  })

  it('drops bytes that still arrive after the body failed', async () => {
    const signal = new AbortSwitch()
    const { res, handler } = await answered(undefined, signal)
    signal.abort(new Error('stopped'))
    handler.onData(Buffer.from('late'))
    await expect(res.body[Symbol.asyncIterator]().next()).rejects.toThrow('stopped')
  })

  it('sends nothing for a signal aborted before the call', async () => {
    const { dispatcher, dispatched } = standIn()
    const signal = new AbortSwitch()
    signal.abort(new Error('already gone'))
    await expect(undiciTransport({ dispatcher })({ method: 'GET', url: 'http://gateway.test/', headers: {}, signal })).rejects.toThrow('already gone')
    expect(dispatched).toEqual([])
  })

  it('rejects with what a dispatcher throws instead of calling onError, and forgets the signal', async () => {
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
    ended.handler.onComplete([])
    await after.return!()
    expect(ended.aborts).toEqual([])
  })

  it('resumes a paused socket only once fewer than 64 KB wait unread', async () => {
    const { res, handler, resumes } = await answered()
    handler.onData(kb(32))
    expect(handler.onData(kb(32))).toBe(false)
    expect(handler.onData(kb(32))).toBe(false)
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
    text.handler.onData(Buffer.from('x'))
    text.handler.onComplete([])
    pulled.handler.onComplete([])
    expect(await reading).toBe('x')
    expect(await waiting).toEqual({ done: true, value: undefined })
    expect(text.resumes() + pulled.resumes()).toBe(0)
  })

  it('ends a reader waiting for the next chunk when the body ends', async () => {
    const { reply, handler, answer } = exchange()
    answer()
    const chunks = (await reply).body[Symbol.asyncIterator]()
    const waiting = chunks.next()
    handler.onComplete([])
    expect(await waiting).toEqual({ done: true, value: undefined })
  })

  it('keeps the first failure, and none after the body ended', async () => {
    const failed = await answered()
    failed.handler.onError(new Error('first'))
    failed.handler.onError(new Error('second'))
    await expect(failed.res.text()).rejects.toThrow('first')

    const ended = await answered()
    ended.handler.onData(Buffer.from('whole'))
    ended.handler.onComplete([])
    ended.handler.onError(new Error('after the end'))
    expect(await ended.res.text()).toBe('whole')
  })

  it('rejects a push read asked for after the body failed, after handing it what was held', async () => {
    const { res, handler } = await answered()
    handler.onData(Buffer.from('held'))
    handler.onError(new Error('cut'))
    const seen: string[] = []
    await expect(res.read!((c) => seen.push(Buffer.from(c).toString()))).rejects.toThrow('cut')
    expect(seen).toEqual(['held'])
  })

  it('a reader that throws on a chunk held for it stops the request with its error', async () => {
    const { res, handler, aborts } = await answered()
    handler.onData(Buffer.from('held'))
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
      const { res, handler, aborts } = await answered(undefined, controller.signal)
      if (finish === 'complete') {
        handler.onComplete([])
        await res.text()
      }
      if (finish === 'error') handler.onError(new Error('reset'))
      if (finish === 'leave') await res.body[Symbol.asyncIterator]().return!()
      const abortsBefore = aborts.length
      controller.abort(new Error('too late'))
      expect(aborts).toHaveLength(abortsBefore)
    }
  })

  it('takes header names in any case, and the last of an odd raw list is no header', async () => {
    const { reply, answer } = exchange()
    answer(200, [Buffer.from('Content-Length'), Buffer.from('12'), Buffer.from('X-Dangling')])
    const res = await reply
    expect(res.header('content-length')).toBe('12')
    expect(res.header('x-dangling')).toBeUndefined()
  })

  it('joins the values of a header given as a list, as a composed dispatcher gives them', async () => {
    const { reply, handler } = exchange()
    handler.onHeaders(200, [Buffer.from('Set-Cookie'), [Buffer.from('a=1'), Buffer.from('b=2')], 'X-Text', 'plain'] as unknown as Buffer[], () => {}, 'OK')
    const res = await reply
    expect(res.header('set-cookie')).toBe('a=1, b=2')
    expect(res.header('x-text')).toBe('plain')
  })
})
