import type { HttpClient } from '@angular/common/http'
import { getEventListeners } from 'node:events'
import { lastValueFrom, Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { httpClientTransport } from '../../src/angular/httpClientTransport.js'
import { createClient, isConnectionError, isHttpError, responses$, textDeltas } from '../../src/index.js'

// HttpClient's events by their shape (HttpEventType: 2 header, 3 download progress, 4 response).
const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null })
const header = (status: number, values: Record<string, string> = {}) => ({ type: 2, status, headers: headers(values) })
const progress = (partialText: string) => ({ type: 3, loaded: partialText.length, partialText })
const response = (status: number, body: string) => ({ type: 4, status, headers: headers({}), body })
const httpError = (status: number, error: unknown, values: Record<string, string> = {}) => ({ name: 'HttpErrorResponse', status, error, headers: headers(values), message: `Http failure response: ${status}` })

/** A stand-in HttpClient: each request is handed to the test, which plays its events. */
function fakeHttp() {
  const calls: { method: string; url: string; options: Record<string, unknown>; events: Subscriber<unknown>; unsubscribed: boolean }[] = []
  const http = {
    request: (method: string, url: string, options: Record<string, unknown>) =>
      new Observable<unknown>((events) => {
        const call = { method, url, options, events, unsubscribed: false }
        calls.push(call)
        return () => void (call.unsubscribed = true)
      }),
  }
  return { http: http as unknown as HttpClient, calls }
}

const signal = () => new AbortController().signal

/** A GET of `/x` through the transport over a fresh stand-in HttpClient: the reply to come, and the call HttpClient was asked for. */
function getX(abortSignal: AbortSignal = signal()) {
  const { http, calls } = fakeHttp()
  const pending = httpClientTransport(http)({ method: 'GET', url: '/x', headers: {}, signal: abortSignal })
  return { pending, call: calls[0]! }
}

describe('httpClientTransport', () => {
  it('asks HttpClient for events with progress as text, with the request as given', async () => {
    const { http, calls } = fakeHttp()
    void httpClientTransport(http)({ method: 'POST', url: '/api/rxgate/x', headers: { accept: 'text/event-stream' }, body: '{"a":1}', signal: signal() })
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/rxgate/x',
      options: { body: '{"a":1}', headers: { accept: 'text/event-stream' }, observe: 'events', reportProgress: true, responseType: 'text' },
    })
  })

  it('answers at the header event, then passes on only the new text of each progress event', async () => {
    const { pending, call: { events } } = getX()
    events.next({ type: 0 })
    events.next(header(200, { 'content-type': 'text/event-stream' }))
    const res = await pending
    expect(res.status).toBe(200)
    expect(res.header('content-type')).toBe('text/event-stream')
    const chunks: string[] = []
    const reading = (async () => {
      for await (const chunk of res.body) chunks.push(new TextDecoder().decode(chunk))
    })()
    events.next(progress('data: 1\n\n'))
    events.next(progress('data: 1\n\ndata: café\n\n'))
    events.next(response(200, 'data: 1\n\ndata: café\n\ndata: 3\n\n'))
    events.complete()
    await reading
    expect(chunks).toEqual(['data: 1\n\n', 'data: café\n\n', 'data: 3\n\n'])
  })

  it('reads an HTTP error status as a reply, which the client turns into HttpError', async () => {
    const { http, calls } = fakeHttp()
    const client = createClient({ baseUrl: 'https://app.example/api/rxgate', apiKey: 'unused-here', transport: httpClientTransport(http), retry: false })
    const result = lastValueFrom(responses$(client, { model: 'm', input: 'hi' })).catch((e: unknown) => e)
    await Promise.resolve()
    calls[0]!.events.error(httpError(429, '{"error":{"message":"slow down","code":"rate_limited"}}', { 'retry-after': '3' }))
    const error = await result
    expect(isHttpError(error) && [error.status, error.code, error.retryAfterMs]).toEqual([429, 'rate_limited', 3_000])
  })

  it('rejects a network failure (status 0), which the client reports as ConnectionError', async () => {
    const { http, calls } = fakeHttp()
    const client = createClient({ baseUrl: 'https://app.example/api/rxgate', apiKey: 'unused-here', transport: httpClientTransport(http), retry: false })
    const result = lastValueFrom(responses$(client, { model: 'm', input: 'hi' })).catch((e: unknown) => e)
    await Promise.resolve()
    calls[0]!.events.error(httpError(0, new TypeError('Failed to fetch')))
    expect(isConnectionError(await result)).toBe(true)
  })

  it('streams events to the client as they arrive, and unsubscribing unsubscribes HttpClient', async () => {
    const { http, calls } = fakeHttp()
    const client = createClient({ baseUrl: 'https://app.example/api/rxgate', apiKey: 'unused-here', transport: httpClientTransport(http) })
    const deltas: string[] = []
    const subscription = responses$(client, { model: 'm', input: 'hi', stream: true }).pipe(textDeltas()).subscribe((d) => deltas.push(d))
    await Promise.resolve()
    const call = calls[0]!
    call.events.next(header(200, { 'content-type': 'text/event-stream' }))
    const delta = (n: number, text: string) => `data: {"type":"response.output_text.delta","sequence_number":${n},"item_id":"m","output_index":0,"content_index":0,"delta":"${text}"}\n\n`
    call.events.next(progress(delta(1, 'Hel')))
    await expect.poll(() => deltas).toEqual(['Hel'])
    call.events.next(progress(delta(1, 'Hel') + delta(2, 'lo')))
    await expect.poll(() => deltas).toEqual(['Hel', 'lo'])
    subscription.unsubscribe()
    expect(call.unsubscribed).toBe(true)
  })

  it('unsubscribes at once when aborted before any reply', async () => {
    const abort = new AbortController()
    const { pending, call } = getX(abort.signal)
    abort.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    expect(call.unsubscribed).toBe(true)
  })

  it('rejects at once, without waiting, when the signal was aborted before the request', async () => {
    const { pending, call } = getX(AbortSignal.abort())
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DOMException)
    expect(error).toMatchObject({ name: 'AbortError', message: 'The request was aborted.' })
    expect(call.unsubscribed).toBe(true)
  })

  it('reads an HTTP error whose body is not text as an empty body', async () => {
    const { pending, call } = getX()
    call.events.error(httpError(502, null))
    const res = await pending
    expect(res.status).toBe(502)
    expect(await res.text()).toBe('')
  })

  it('reads a reply without a body, and progress events without text, as an empty body', async () => {
    const { pending, call: { events } } = getX()
    events.next(header(204))
    events.next({ type: 3, loaded: 0 })
    events.next({ type: 4, status: 204, headers: headers({}), body: null })
    events.complete()
    const res = await pending
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
  })

  it('never passes on text again that a progress event already carried', async () => {
    const { pending, call: { events } } = getX()
    events.next(header(200))
    events.next(progress('abcd'))
    events.next(progress('ab'))
    events.next(progress('abcdef'))
    events.next(response(200, 'abcdef'))
    events.complete()
    expect(await (await pending).text()).toBe('abcdef')
  })

  it.each([
    ['a TypeError', new TypeError('Failed to fetch')],
    ['null', null],
    ['a plain object', { status: 500, message: 'odd' }],
    ['the HttpErrorResponse class itself, not an instance', Object.assign(function HttpErrorResponse() {}, { status: 500 })],
  ])('rejects with a TypeError when HttpClient fails with %s, which is not an HTTP reply', async (_, failure) => {
    const { pending, call } = getX()
    call.events.error(failure)
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toBe('HttpClient could not complete the request')
    expect((error as TypeError).cause).toBe(failure)
  })

  it('names HttpClient’s message of a network failure (status 0), with its error as the cause', async () => {
    const { pending, call } = getX()
    const cause = new TypeError('Failed to fetch')
    call.events.error(httpError(0, cause))
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toBe('HttpClient could not complete the request (Http failure response: 0)')
    expect((error as TypeError).cause).toBe(cause)
  })

  it('fails the body when HttpClient completes without the reply', async () => {
    const { pending, call } = getX()
    call.events.next(header(200))
    call.events.next(progress('part'))
    call.events.complete()
    const error = await (await pending).text().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toMatch(/^HttpClient ended the request without its reply/)
  })

  // A long-lived signal (one per page, say) must not collect a listener per request.
  it.each([
    ['a whole reply', (events: Subscriber<unknown>) => (events.next(response(200, 'ok')), events.complete())],
    ['an HTTP error status', (events: Subscriber<unknown>) => events.error(httpError(500, 'down'))],
    ['a network failure', (events: Subscriber<unknown>) => events.error(httpError(0, new TypeError('Failed to fetch')))],
    ['a reply cut short', (events: Subscriber<unknown>) => (events.next(header(200)), events.complete())],
  ])('leaves no listener on the signal after %s', async (_, play) => {
    const controller = new AbortController()
    const { pending, call } = getX(controller.signal)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    play(call.events)
    await pending.then((res) => res.text()).catch(() => undefined)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})
