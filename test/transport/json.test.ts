import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { json$ } from '../../src/transport/json$.js'
import type { RequestSpec, Transport } from '../../src/transport/types.js'
import { clientWith, fakeClient } from '../helpers/client.js'
import { settle, VirtualClock } from '../helpers/clock.js'
import { observe } from '../helpers/collect.js'
import { json, networkError, never, repeated, type Answer } from '../helpers/fakeTransport.js'

const GET: RequestSpec = { method: 'GET', path: '/r/1?x=1' }

function run(answer: Answer, options = {}) {
  const setup = fakeClient(answer, { timeoutMs: 1_000, ...options })
  return { ...setup, o: observe(json$(setup.client, GET)) }
}

describe('json$', () => {
  it('emits the parsed reply, then completes, asking for JSON; the request is not aborted and no timer is left', async () => {
    const { gw, clock, o } = run(() => json({ id: 'r', n: [1, 2] }))
    expect(await o.done).toEqual({ values: [{ id: 'r', n: [1, 2] }], error: undefined, completed: true })
    expect(gw.request(1).headers.accept).toBe('application/json')
    expect(gw.request(1)).toMatchObject({ aborted: false, readToEnd: true })
    expect(clock.pending).toBe(0)
  })

  it('sends nothing until subscribed, and anew for each subscription', async () => {
    const { gw, client } = fakeClient(() => json({}))
    const once$ = json$(client, GET)
    await settle()
    expect(gw.requests).toHaveLength(0)
    await observe(once$).done
    await observe(once$).done
    expect(gw.requests).toHaveLength(2)
  })

  it('ends in TimeoutError when no whole reply arrives within timeoutMs, and aborts the request', async () => {
    const { gw, clock, o } = run(() => never())
    await settle()
    clock.advance(999)
    await settle()
    expect(o.error).toBeUndefined()
    clock.advance(1)
    const { error } = await o.done
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toMatchObject({ method: 'GET', path: '/r/1', timeoutMs: 1_000, reason: 'silence' })
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
  })

  it('counts the body in the timeout: headers in time but a stalled body still time out', async () => {
    const { gw, clock, o } = run(() => ({ status: 200, body: 'fed' }))
    await settle()
    gw.request(1).fed!.push('{"id":')
    await clock.run(1_000)
    expect((await o.done).error).toBeInstanceOf(TimeoutError)
    expect(gw.request(1).aborted).toBe(true)
  })

  it.each([
    ['not JSON', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"r",' }, 'is not JSON'],
    ['an HTML page with a 200', { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html>maintenance</html>' }, 'is text/html, not JSON'],
    ['valid JSON sent as text/html', { status: 200, headers: { 'content-type': 'text/html' }, body: '{"id":"r"}' }, 'is text/html, not JSON'],
  ])('ends a reply that is %s in ValidationError holding the raw text', async (_, reply, message) => {
    const { o } = run(() => reply)
    const { error } = await o.done
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: '', message }], payload: reply.body })
    expect((error as Error).message).toBe(`Unexpected reply to GET /r/1 from the gateway: ${message}.`)
  })

  it('ends a body over maxBodyBytes in PayloadTooLargeError and aborts the request', async () => {
    const { gw, o } = run(
      () => ({
        status: 200,
        body: repeated('['.repeat(4_096)),
      }),
      { maxBodyBytes: 100_000 },
    )
    const { error } = await o.done
    expect(error).toBeInstanceOf(PayloadTooLargeError)
    expect(error).toMatchObject({ limit: 'maxBodyBytes', limitBytes: 100_000 })
    expect(gw.request(1).aborted).toBe(true)
    expect(gw.request(1).bytesRead).toBeLessThanOrEqual(100_000 + 4_096)
  })

  it('passes an HttpError through and aborts the rest of its body', async () => {
    const { gw, o } = run(() => ({
      status: 503,
      body: repeated('busy '.repeat(1_000)),
    }))
    const { error } = await o.done
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 503 })
    expect(gw.request(1).aborted).toBe(true)
  })

  it('passes a ConnectionError through', async () => {
    const { o } = run(() => networkError('ECONNREFUSED'))
    expect((await o.done).error).toMatchObject({ name: 'ConnectionError', sent: false })
  })

  it('unsubscribed before the headers: aborts the request, clears the timer, emits nothing', async () => {
    const { gw, clock, o } = run(() => never())
    await settle()
    o.subscription.unsubscribe()
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
    await settle()
    expect(o).toMatchObject({ values: [], error: undefined, completed: false })
  })

  it('unsubscribed just as the budget admits it: no timer is left', async () => {
    const { gw, clock, client } = fakeClient(() => ({ status: 200, body: 'fed' }), { timeoutMs: 1_000, maxConcurrency: 1 })
    const first = observe(json$(client, GET))
    const second = observe(json$(client, GET))
    await settle()
    expect(gw.requests).toHaveLength(1)
    gw.request(1).fed!.push('{"id":')
    await settle()
    // Leaving the first admits the second at once; the second is left before it can go on.
    first.subscription.unsubscribe()
    second.subscription.unsubscribe()
    await settle()
    expect(clock.pending).toBe(0)
  })

  it('unsubscribed in the middle of the body: aborts the request, emits nothing', async () => {
    const { gw, clock, o } = run(() => ({ status: 200, body: 'fed' }))
    await settle()
    gw.request(1).fed!.push('{"id":"r",')
    await settle()
    o.subscription.unsubscribe()
    expect(gw.request(1).aborted).toBe(true)
    expect(clock.pending).toBe(0)
    gw.request(1).fed!.push('"n":1}')
    gw.request(1).fed!.end()
    await settle()
    expect(o.values).toEqual([])
  })

  it('a body cut by the network is a ConnectionError (sent)', async () => {
    const { gw, o } = run(() => ({ status: 200, body: 'fed' }))
    await settle()
    gw.request(1).fed!.push('{"id":')
    gw.request(1).fed!.fail(networkError('ECONNRESET'))
    const { error } = await o.done
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).toMatchObject({ sent: true })
  })
})

describe('json$: past the time limit', () => {
  it('a reply whose body still arrives (a transport that ignores the abort) is not decoded: the timeout stands', async () => {
    const clock = new VirtualClock()
    let release!: (text: string) => void
    const late = new Promise<string>((resolve) => (release = resolve))
    const transport: Transport = async () => ({
      status: 200,
      header: (name) => ({ 'content-length': '8', 'content-type': 'application/json' })[name],
      body: (async function* () {
        yield new TextEncoder().encode(await late)
      })(),
      text: () => late,
    })
    const decoded: unknown[] = []
    const o = observe(json$(clientWith({ transport, scheduler: clock, timeoutMs: 1_000 }), GET, (json) => (decoded.push(json), json)))
    await settle()
    clock.advance(1_000)
    expect(o.error).toBeInstanceOf(TimeoutError)
    release('{"id":1}')
    await settle()
    expect(decoded).toEqual([])
    expect(o.values).toEqual([])
  })
})
