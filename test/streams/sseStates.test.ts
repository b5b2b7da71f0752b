import { Observable, take, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import type { ResponseEvent } from '../../src/hooks.js'
import { sse$ } from '../../src/streams/sse$.js'
import type { Exchange, ExchangePart, RequestSpec, Transport, TransportRequest } from '../../src/transport/types.js'
import { clientWith } from '../helpers/client.js'
import { settle, VirtualClock } from '../helpers/clock.js'
import { observe } from '../helpers/collect.js'
import { fakeGateway, networkError, sse } from '../helpers/fakeTransport.js'

// Each transition of a stream (open → draining → done, open → done), seen
// from outside: what the subscriber gets, whether the request is aborted or
// read to its end, how its exchange is reported to have ended (the client's
// `onResponse` hook), and which timers are left. Every case runs with the
// body pulled, pushed (as the Node transport does: a body that can be
// pushed is never pulled) and delivered by an `exchange` (notifications, as
// the Angular transport does).

interface Ev {
  type: string
}
const SPEC: RequestSpec = { method: 'POST', path: '/s', body: '{}' }
const ev = (type: string) => `data: {"type":"${type}"}\n\n`
const options = { decode: (json: unknown) => json as Ev, isLast: (e: Ev) => e.type === 'done' }

/** The body of the one request, fed by the test, and what the client did with it. */
interface Body {
  push(text: string): Promise<void>
  end(): Promise<void>
  fail(error: unknown): Promise<void>
  readonly aborted: boolean
  readonly readToEnd: boolean
}

/** An exchange whose one reply (200, an event stream) the test feeds; `asked` holds the request. */
function fedExchange(): { exchange: Exchange; body: () => Body; asked: TransportRequest[] } {
  let sink: Subscriber<ExchangePart> | undefined
  const seen = { aborted: false, readToEnd: false, failed: false }
  const asked: TransportRequest[] = []
  const exchange: Exchange = (request) =>
    new Observable<ExchangePart>((subscriber) => {
      asked.push(request)
      sink = subscriber
      subscriber.next({ type: 'head', status: 200, headers: { 'content-type': 'text/event-stream' } })
      return () => void (seen.aborted ||= !seen.readToEnd && !seen.failed)
    })
  const then = async (act: () => void) => (act(), await settle())
  const body = (): Body => ({
    push: (text) => then(() => sink?.next({ type: 'chunk', bytes: new TextEncoder().encode(text) })),
    end: () => then(() => ((seen.readToEnd = true), sink?.complete())),
    fail: (error) => then(() => ((seen.failed = true), sink?.error(error))),
    get aborted() {
      return seen.aborted
    },
    get readToEnd() {
      return seen.readToEnd
    },
  })
  return { exchange, body, asked }
}

/** One stream, subscribed and answered, its body still to feed; `ends` lists how its exchange was reported to end. */
async function stream(way: 'pulled' | 'pushed' | 'exchange') {
  const ends: string[] = []
  const onResponse = (e: ResponseEvent) => ends.push(e.outcome === 'error' ? `error: ${e.error?.name}` : e.outcome)
  const more = { timeoutMs: 1_000, hooks: { onResponse } }
  if (way === 'exchange') {
    const clock = new VirtualClock()
    const { exchange, body, asked } = fedExchange()
    const o = observe(sse$(clientWith({ exchange, scheduler: clock, ...more }), SPEC, options))
    await settle()
    return { o, clock, body: body(), ends, accept: asked[0]?.headers.accept }
  }
  const clock = new VirtualClock()
  const gw = fakeGateway(() => sse('fed'), { push: way === 'pushed' })
  const transport: Transport = async (request) => {
    const res = await gw.transport(request)
    if (!res.read) return res
    const pulled = () => {
      throw new Error('a body that can be pushed was pulled')
    }
    return { ...res, body: { [Symbol.asyncIterator]: pulled } }
  }
  const o = observe(sse$(clientWith({ transport, scheduler: clock, ...more }), SPEC, options))
  await settle()
  const seen = gw.request(1)
  const fed = seen.fed
  if (!fed) throw new Error('the stream was not answered')
  const then = async (act: () => void) => (act(), await settle())
  const body: Body = {
    push: (text) => then(() => fed.push(text)),
    end: () => then(() => fed.end()),
    fail: (error) => then(() => fed.fail(error)),
    get aborted() {
      return seen.aborted
    },
    get readToEnd() {
      return seen.readToEnd
    },
  }
  return { o, clock, body, ends, accept: seen.headers.accept }
}

describe.each(['pulled', 'pushed', 'exchange'] as const)('sse$ states, the body %s', (way) => {
  it('open → draining at the last event: emits it and completes; the body is still read, under the 2 s grace alone', async () => {
    const { o, clock, body, ends, accept } = await stream(way)
    expect(accept).toBe('text/event-stream')
    await body.push(ev('a') + ev('done') + ev('late'))
    expect(o).toMatchObject({ values: [{ type: 'a' }, { type: 'done' }], completed: true, error: undefined })
    expect(body.aborted).toBe(false)
    expect(ends).toEqual([])
    expect(clock.pendingDelays).toEqual([2_000])
  })

  it('draining → done, read to its end: nothing is aborted, the exchange ends well, no timer is left', async () => {
    const { clock, body, ends } = await stream(way)
    await body.push(ev('done'))
    await body.push('data: [DONE]\n\n')
    await body.end()
    expect(body).toMatchObject({ aborted: false, readToEnd: true })
    expect(ends).toEqual(['ok'])
    expect(clock.pending).toBe(0)
  })

  it('open → draining → done at once, when the end of the body completes the last event: read to its end, no timer is left', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('a') + 'data: {"type":"done"}')
    await body.end()
    expect(o).toMatchObject({ values: [{ type: 'a' }, { type: 'done' }], completed: true, error: undefined })
    expect(body).toMatchObject({ aborted: false, readToEnd: true })
    expect(ends).toEqual(['ok'])
    expect(clock.pending).toBe(0)
  })

  it('draining → done, cut short by the 2 s grace: the rest is aborted, the exchange still ends well', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('done'))
    clock.advance(1_999)
    expect(body.aborted).toBe(false)
    clock.advance(1)
    await settle()
    expect(body.aborted).toBe(true)
    expect(ends).toEqual(['ok'])
    expect(o).toMatchObject({ completed: true, error: undefined })
    expect(clock.pending).toBe(0)
  })

  it('draining → done, cut short past 64 KB: the rest is aborted, no timer is left', async () => {
    const { clock, body, ends } = await stream(way)
    await body.push(ev('done'))
    await body.push(`: ${'p'.repeat(64 * 1024)}\n`)
    expect(body.aborted).toBe(true)
    expect(ends).toEqual(['ok'])
    expect(clock.pending).toBe(0)
  })

  it('draining → done, cut short by a broken body: the stream stays completed, no timer is left', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('done'))
    await body.fail(networkError('ECONNRESET'))
    expect(o).toMatchObject({ completed: true, error: undefined })
    expect(ends).toEqual(['ok'])
    expect(clock.pending).toBe(0)
  })

  it('open → done by a failure: the error ends the stream, the request is aborted, later events are not read', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('a') + 'data: {not json\n\n' + ev('b'))
    expect(o.values).toEqual([{ type: 'a' }])
    expect(o.error).toBeInstanceOf(ValidationError)
    expect(body.aborted).toBe(true)
    expect(ends).toEqual(['error: ValidationError'])
    expect(clock.pending).toBe(0)
  })

  it('open → done by silence: TimeoutError timeoutMs after the last event, the request aborted', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('a'))
    clock.advance(1_000)
    await settle()
    expect(o.error).toBeInstanceOf(TimeoutError)
    expect(body.aborted).toBe(true)
    expect(ends).toEqual(['error: TimeoutError'])
    expect(clock.pending).toBe(0)
  })

  it('open → done by a body that ends before the last event: ConnectionError, no timer is left', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('a'))
    await body.end()
    expect(o.values).toEqual([{ type: 'a' }])
    expect(o.error).toBeInstanceOf(ConnectionError)
    expect(ends).toEqual(['error: ConnectionError'])
    expect(clock.pending).toBe(0)
  })

  it('open → done by the subscriber leaving: the request is aborted, the exchange ends as aborted, no timer is left', async () => {
    const { o, clock, body, ends } = await stream(way)
    await body.push(ev('a'))
    o.subscription.unsubscribe()
    await settle()
    expect(body.aborted).toBe(true)
    expect(ends).toEqual(['aborted'])
    expect(clock.pending).toBe(0)
  })

  it('done: what still arrives changes nothing', async () => {
    const { o, body, ends } = await stream(way)
    o.subscription.unsubscribe()
    await body.push(ev('late') + ev('done'))
    await body.fail(networkError('ECONNRESET'))
    expect(o).toMatchObject({ values: [], completed: false, error: undefined })
    expect(ends).toEqual(['aborted'])
  })
})

/** A transport whose body does not stop when the request is aborted; `pulled` counts the chunks taken from it. */
function deafTransport(chunks: readonly string[]) {
  const pulled = { count: 0 }
  const transport: Transport = async () => ({
    status: 200,
    header: (name) => (name === 'content-type' ? 'text/event-stream' : undefined),
    body: {
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) {
          pulled.count++
          yield new TextEncoder().encode(chunk)
        }
      },
    },
    text: async () => chunks.join(''),
  })
  return { transport, pulled }
}

describe('sse$ done: a pulled body whose transport does not hear the abort is pulled no further', () => {
  const run = async (chunks: readonly string[], first = false) => {
    const { transport, pulled } = deafTransport(chunks)
    const source = sse$(clientWith({ transport, scheduler: new VirtualClock(), timeoutMs: 1_000 }), SPEC, options)
    const o = observe(first ? source.pipe(take(1)) : source)
    await settle(10)
    return { o, pulled }
  }

  it('after a failure', async () => {
    const { o, pulled } = await run([ev('a'), 'data: {not json\n\n', ev('b'), ev('done')])
    expect(o.error).toBeInstanceOf(ValidationError)
    expect(pulled.count).toBe(2)
  })

  it('after the subscriber left', async () => {
    const { o, pulled } = await run([ev('a'), ev('b'), ev('done')], true)
    expect(o).toMatchObject({ values: [{ type: 'a' }], completed: true })
    expect(pulled.count).toBe(1)
  })

  it('after a drain cut short past 64 KB', async () => {
    const { o, pulled } = await run([ev('done'), `: ${'p'.repeat(64 * 1024)}\n`, ': more\n', ': and more\n'])
    expect(o.completed).toBe(true)
    expect(pulled.count).toBe(2)
  })
})
