import { catchError, concat, map, NEVER, Observable, of, throwError, timer, type SchedulerLike } from 'rxjs'
import { TestScheduler } from 'rxjs/testing'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import type { ResponseEvent } from '../../src/hooks.js'
import { sse$ } from '../../src/streams/sse$.js'
import { json$ } from '../../src/transport/json$.js'
import type { Exchange, ExchangePart, TransportRequest } from '../../src/transport/types.js'

// The Observable exchange path of json$ and sse$: the same statuses, errors,
// limits, timeouts and aborts as the Promise path, all in virtual time.
const virtual = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected))
const bytes = (text: string): ExchangePart => ({ type: 'chunk', bytes: new TextEncoder().encode(text) })
const head = (status: number, headers: Record<string, string> = {}): ExchangePart => ({ type: 'head', status, headers })
const spec = { method: 'GET', path: '/things/1' } as const
const name = (error: unknown) => of(error instanceof Error ? `${error.name}${error instanceof HttpError ? ` ${error.status} ${error.retryAfterMs}` : ''}` : String(error))

function connection(exchange: Exchange, scheduler: SchedulerLike, extra: { maxBodyBytes?: number; timeoutMs?: number; onResponse?: (e: ResponseEvent) => void } = {}) {
  const { onResponse, ...limits } = extra
  return createClient({ baseUrl: 'https://gw.test', apiKey: 'k', exchange, scheduler, adaptToRateLimits: false, ...limits, ...(onResponse ? { hooks: { onResponse } } : {}) })
}

/** An exchange that replies with `parts`, `delay` ms after the request, and records requests and unsubscriptions. */
function scripted(parts: (request: TransportRequest) => Observable<ExchangePart>) {
  const seen = { requests: [] as TransportRequest[], unsubscribed: 0 }
  const exchange: Exchange = (request) =>
    new Observable<ExchangePart>((subscriber) => {
      seen.requests.push(request)
      const sub = parts(request).subscribe(subscriber)
      return () => {
        seen.unsubscribed++
        sub.unsubscribe()
      }
    })
  return { exchange, seen }
}

describe('json$ through an exchange', () => {
  it('emits the parsed reply at the virtual time it arrives, with the final headers sent', () => {
    const s = virtual()
    const { exchange, seen } = scripted(() => concat(timer(30).pipe(map(() => head(200, { 'content-type': 'application/json' }))), of(bytes('{"a":'), bytes('1}'))))
    s.run(({ expectObservable }) => expectObservable(json$(connection(exchange, s), spec)).toBe('30ms (a|)', { a: { a: 1 } }))
    expect(seen.requests[0]).toMatchObject({ method: 'GET', url: 'https://gw.test/things/1', headers: { accept: 'application/json', authorization: 'Bearer k' } })
  })

  it('ends a non-2xx reply in HttpError with its Retry-After, and tells the hooks', () => {
    const s = virtual()
    const events: ResponseEvent[] = []
    const { exchange } = scripted(() => of(head(503, { 'Retry-After': '3' }), bytes('{"error":{"message":"busy"}}')))
    s.run(({ expectObservable }) => expectObservable(json$(connection(exchange, s, { onResponse: (e) => events.push(e) }), spec).pipe(catchError(name))).toBe('(a|)', { a: 'HttpError 503 3000' }))
    expect(events.map((e) => [e.status, e.outcome])).toEqual([[503, 'error']])
  })

  it('refuses a body over maxBodyBytes with PayloadTooLargeError, and stops the exchange', () => {
    const s = virtual()
    const { exchange, seen } = scripted(() => concat(of(head(200), bytes('{"a":"0123456789"')), NEVER))
    s.run(({ expectObservable }) => expectObservable(json$(connection(exchange, s, { maxBodyBytes: 10 }), spec).pipe(catchError(name))).toBe('(a|)', { a: PayloadTooLargeError.name }))
    expect(seen.unsubscribed).toBe(1)
  })

  it('times out in virtual time when no reply arrives within timeoutMs, and stops the exchange', () => {
    const s = virtual()
    const { exchange, seen } = scripted(() => NEVER)
    s.run(({ expectObservable }) => expectObservable(json$(connection(exchange, s, { timeoutMs: 500 }), spec).pipe(catchError(name))).toBe('500ms (a|)', { a: TimeoutError.name }))
    expect(seen.unsubscribed).toBe(1)
  })

  it('makes a network failure a ConnectionError, and an unsubscription an abort the hooks see', () => {
    const s = virtual()
    const events: ResponseEvent[] = []
    const failing = scripted(() => throwError(() => Object.assign(new Error('reset'), { code: 'ECONNRESET' })))
    const silent = scripted(() => NEVER)
    s.run(({ expectObservable }) => {
      expectObservable(json$(connection(failing.exchange, s), spec).pipe(catchError(name))).toBe('(a|)', { a: ConnectionError.name })
      expectObservable(json$(connection(silent.exchange, s, { onResponse: (e) => events.push(e) }), spec), '^ 40ms !').toBe('')
    })
    expect(silent.seen.unsubscribed).toBe(1)
    expect(events.map((e) => e.outcome)).toEqual(['aborted'])
  })
})

describe('sse$ through an exchange', () => {
  const events = { decode: (json: unknown) => json as { type: string }, isLast: (e: { type: string }) => e.type === 'done' }
  const frame = (type: string) => bytes(`data: {"type":"${type}"}\n\n`)

  it('emits each event when its chunk arrives, and completes at the last one', () => {
    const s = virtual()
    const { exchange } = scripted(() => concat(of(head(200)), timer(10).pipe(map(() => frame('a'))), timer(10).pipe(map(() => frame('done')))))
    s.run(({ expectObservable }) => expectObservable(sse$(connection(exchange, s), spec, events).pipe(map((e) => e.type))).toBe('10ms a 9ms (b|)', { a: 'a', b: 'done' }))
  })

  it('ends a body cut before the last event in ConnectionError, and a broken one too', () => {
    const s = virtual()
    const cut = scripted(() => of(head(200), frame('a')))
    const broken = scripted(() => concat(of(head(200), frame('a')), throwError(() => new Error('reset'))))
    s.run(({ expectObservable }) => {
      expectObservable(sse$(connection(cut.exchange, s), spec, events).pipe(map((e) => e.type), catchError(name))).toBe('(ab|)', { a: 'a', b: ConnectionError.name })
      expectObservable(sse$(connection(broken.exchange, s), spec, events).pipe(map((e) => e.type), catchError(name))).toBe('(ab|)', { a: 'a', b: ConnectionError.name })
    })
  })

  it('times out a silent stream after timeoutMs without a complete event', () => {
    const s = virtual()
    const { exchange, seen } = scripted(() => concat(of(head(200), frame('a')), timer(100).pipe(map(() => bytes(': ping\n\n'))), NEVER))
    s.run(({ expectObservable }) => expectObservable(sse$(connection(exchange, s, { timeoutMs: 300 }), spec, events).pipe(map((e) => e.type), catchError(name))).toBe('a 299ms (b|)', { a: 'a', b: TimeoutError.name }))
    expect(seen.unsubscribed).toBe(1)
  })
})
