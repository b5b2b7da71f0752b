import { beforeEach, describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { sse$ } from '../../src/streams/sse$.js'
import type { RequestSpec } from '../../src/transport/types.js'
import { fakeClient, type TestClientOptions } from '../helpers/client.js'
import { settle } from '../helpers/clock.js'
import { observe } from '../helpers/collect.js'
import { json, networkError, never, repeated, sse, type Answer } from '../helpers/fakeTransport.js'

interface Ev { type: string; n?: number }
const SPEC: RequestSpec = { method: 'POST', path: '/s?x=1', body: '{}' }
const ev = (type: string, n?: number) => `event: ${type}\ndata: ${JSON.stringify(n === undefined ? { type } : { type, n })}\n\n`
const decode = (json: unknown): Ev => {
  if ((json as Ev).type === 'bad') throw new ValidationError('stream event', [{ path: 'type', message: 'is bad' }], json)
  return json as Ev
}
const options = { decode, isLast: (e: Ev) => e.type === 'done' }

/** How the scripted transport hands bodies over: iterated, or pushed to the reader (as the Node transport does). Every case runs both ways. */
let bodies: 'pulled' | 'pushed' = 'pulled'

function run(answer: Answer, more: TestClientOptions = {}) {
  const setup = fakeClient(answer, { timeoutMs: 1_000, pushBodies: bodies === 'pushed', ...more })
  return { ...setup, o: observe(sse$(setup.client, SPEC, options)) }
}

/** A stream whose body the test feeds. */
async function fed(more: TestClientOptions = {}) {
  const setup = run(() => sse('fed'), more)
  await settle()
  const body = setup.gw.request(1).fed!
  const push = async (text: string) => {
    body.push(text)
    await settle()
  }
  return { ...setup, body, push }
}

describe.each(['pulled', 'pushed'] as const)('the body %s', (mode) => {
  beforeEach(() => {
    bodies = mode
  })

  describe('sse$: events', () => {
    it('emits each event’s data parsed and decoded, in order, then completes after the last one; asks for an event stream', async () => {
      const { gw, o } = run(() => sse(ev('a', 1) + ': ping\n\n' + ev('b', 2) + ev('done', 3)))
      expect(await o.done).toEqual({ values: [{ type: 'a', n: 1 }, { type: 'b', n: 2 }, { type: 'done', n: 3 }], error: undefined, completed: true })
      expect(gw.request(1).headers.accept).toBe('text/event-stream')
    })

    it('skips [DONE], and takes the SSE event name as the type of a payload without one', async () => {
      const { o } = run(() => sse('event: a\ndata: {"n":1}\n\nevent: x\ndata: {"type":"b"}\n\ndata: [DONE]\n\n' + ev('done')))
      expect((await o.done).values).toEqual([{ type: 'a', n: 1 }, { type: 'b' }, { type: 'done' }])
    })

    it('names a payload by its event only when it is an object without a type; anything else reaches decode as sent', async () => {
      const seen: unknown[] = []
      const keep = {
        decode: (json: unknown) => (seen.push(json), json),
        isLast: (e: unknown) => (e as Ev | null)?.type === 'done',
      }
      const body = [
        'data: {"n":1}\n\n', // no event name
        'event: x\ndata: 7\n\n',
        'event: x\ndata: "text"\n\n',
        'event: x\ndata: null\n\n',
        'event: x\ndata: {"type":"b"}\n\n',
        'event: x\ndata: {"n":2}\n\n',
        'event: x\ndata: {"n":3,"type":"c"}\n\n',
        ev('done'),
      ]
      const { client } = fakeClient(() => sse(body.join('')), { timeoutMs: 1_000, pushBodies: bodies === 'pushed' })
      expect(await observe(sse$(client, SPEC, keep)).done).toMatchObject({ completed: true })
      expect(seen).toStrictEqual([{ n: 1 }, 7, 'text', null, { type: 'b' }, { type: 'x', n: 2 }, { n: 3, type: 'c' }, { type: 'done' }])
      // A payload with a type of its own is passed on as parsed, not copied: its keys keep their order.
      expect(JSON.stringify(seen[6])).toBe('{"n":3,"type":"c"}')
    })

    it('delivers a last event the server did not close with a blank line', async () => {
      const { o } = run(() => sse(ev('a', 1) + 'data: {"type":"done"}'))
      expect(await o.done).toMatchObject({ values: [{ type: 'a' }, { type: 'done' }], completed: true })
    })

    it('ends data that is not JSON in ValidationError holding the raw text, and aborts', async () => {
      const { gw, o } = run(() => sse(ev('a') + 'data: {not json\n\n' + ev('done')))
      const { values, error } = await o.done
      expect(values).toEqual([{ type: 'a' }])
      expect(error).toBeInstanceOf(ValidationError)
      expect(error).toMatchObject({ payload: '{not json', issues: [{ path: '', message: 'data is not JSON' }] })
      expect((error as Error).message).toBe('Unexpected stream event from the gateway: data is not JSON.')
      expect(gw.request(1).aborted).toBe(true)
    })

    it('ends with the error `decode` throws, and aborts', async () => {
      const { gw, o } = run(() => sse(ev('a') + ev('bad') + ev('done')))
      const { values, error } = await o.done
      expect(values).toEqual([{ type: 'a' }])
      expect(error).toMatchObject({ name: 'ValidationError', issues: [{ path: 'type' }] })
      expect(gw.request(1).aborted).toBe(true)
    })

    it('passes an HttpError of a rejected request through', async () => {
      const { o } = run(() => json({ error: { message: 'no stream' } }, 400))
      expect((await o.done).error).toMatchObject({ name: 'HttpError', status: 400, gatewayMessage: 'no stream' })
      expect((await o.done).error).toBeInstanceOf(HttpError)
    })
  })

  describe('sse$: a body that ends early', () => {
    it('ends a body that closes before the last event in ConnectionError (a cut stream never passes for a finished one)', async () => {
      const { o } = run(() => sse(ev('a', 1) + ev('b', 2)))
      const { values, error, completed } = await o.done
      expect(values).toHaveLength(2)
      expect(completed).toBe(false)
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ method: 'POST', path: '/s', sent: true, message: 'POST /s: the stream ended before the response finished' })
    })

    it('ends a body that closes cleanly in the middle of an event in ConnectionError, not ValidationError', async () => {
      const { o } = run(() => sse(ev('a', 1) + 'event: b\ndata: {"type":"b","n":'))
      const { values, error } = await o.done
      expect(values).toEqual([{ type: 'a', n: 1 }])
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ sent: true, message: 'POST /s: the stream ended in the middle of an event' })
    })

    it('ends a body broken by the network in ConnectionError (sent)', async () => {
      const { body, push, o } = await fed()
      await push(ev('a'))
      body.fail(networkError('ECONNRESET'))
      const { values, error } = await o.done
      expect(values).toEqual([{ type: 'a' }])
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ sent: true, message: 'POST /s: the connection closed in the middle of the reply (ECONNRESET)' })
    })
  })

  describe('sse$: the idle timeout counts complete events only', () => {
    it('ends in TimeoutError timeoutMs after the last event, and aborts', async () => {
      const { clock, gw, push, o } = await fed()
      await push(ev('a'))
      clock.advance(999)
      await push(ev('b'))
      clock.advance(999)
      await push(ev('c'))
      clock.advance(999)
      expect(o.error).toBeUndefined()
      clock.advance(1)
      const { values, error } = await o.done
      expect(values).toHaveLength(3)
      expect(error).toBeInstanceOf(TimeoutError)
      expect(error).toMatchObject({ timeoutMs: 1_000, reason: 'silence', path: '/s' })
      expect(gw.request(1).aborted).toBe(true)
      expect(clock.pending).toBe(0)
    })

    it('pings forever do not keep a stream alive: TimeoutError at timeoutMs', async () => {
      const { clock, push, o } = await fed()
      await push(ev('a'))
      for (let t = 0; t < 990; t += 10) {
        clock.advance(10)
        await push(': ping\n\n')
      }
      expect(o.error).toBeUndefined()
      clock.advance(10)
      expect((await o.done).error).toBeInstanceOf(TimeoutError)
      expect(clock.now()).toBe(1_000)
    })

    it('an event dripped one byte at a time does not keep a stream alive: TimeoutError at timeoutMs', async () => {
      const { clock, push, o } = await fed()
      const drip = `data: ${JSON.stringify({ type: 'slow', text: 'x'.repeat(500) })}\n\n`
      for (let i = 0; i < 100; i++) {
        clock.advance(10)
        await push(drip[i]!)
      }
      const { values, error } = await o.done
      expect(values).toEqual([])
      expect(error).toBeInstanceOf(TimeoutError)
      expect(clock.now()).toBe(1_000)
    })

    it('times out a reply whose headers never come', async () => {
      const { clock, gw, o } = run(() => never())
      await settle()
      clock.advance(1_000)
      expect((await o.done).error).toBeInstanceOf(TimeoutError)
      expect(gw.request(1).aborted).toBe(true)
    })
  })

  describe('sse$: bounded memory', () => {
    it('ends an endless line in PayloadTooLargeError past maxEventBytes, and aborts', async () => {
      const { gw, o } = run(
        () =>
          sse(
            (function* () {
              yield ev('a')
              yield 'data: '
              yield* repeated('x'.repeat(8_192))
            })(),
          ),
        { maxEventBytes: 100_000 },
      )
      const { values, error } = await o.done
      expect(values).toEqual([{ type: 'a' }])
      expect(error).toBeInstanceOf(PayloadTooLargeError)
      expect(error).toMatchObject({ limit: 'maxEventBytes', limitBytes: 100_000, path: '/s' })
      expect(gw.request(1).aborted).toBe(true)
      expect(gw.request(1).bytesRead).toBeLessThan(100_000 + 2 * 8_192)
    })

    it('ends endless data lines without a blank line in PayloadTooLargeError, and aborts', async () => {
      const { gw, o } = run(
        () =>
          sse(
            repeated('data: {"more":"and more"}\n'.repeat(100)),
          ),
        { maxEventBytes: 50_000 },
      )
      expect((await o.done).error).toMatchObject({ name: 'PayloadTooLargeError', limit: 'maxEventBytes' })
      expect(gw.request(1).aborted).toBe(true)
    })

    it('lets events up to maxEventBytes through', async () => {
      const big = JSON.stringify({ type: 'big', image: 'A'.repeat(90_000) })
      const { o } = run(() => sse(`data: ${big}\n\n` + ev('done')), { maxEventBytes: 100_000 })
      expect((await o.done).values.map((e) => e.type)).toEqual(['big', 'done'])
    })
  })

  describe('sse$: after the last event', () => {
    it('reads the rest of a finished stream to its end instead of aborting it, leaving no timer', async () => {
      const { gw, clock, body, push, o } = await fed()
      await push(ev('a') + ev('done'))
      expect(o.completed).toBe(true)
      expect(clock.pendingDelays).toEqual([2_000])
      await push('data: [DONE]\n\n')
      body.end()
      await settle()
      expect(gw.request(1)).toMatchObject({ readToEnd: true, aborted: false })
      expect(clock.pending).toBe(0)
    })

    it('aborts the rest when the server keeps the stream open past the 2 s grace', async () => {
      const { gw, clock, push, o } = await fed()
      await push(ev('done'))
      expect(o.completed).toBe(true)
      clock.advance(1_999)
      await settle()
      expect(gw.request(1).aborted).toBe(false)
      clock.advance(1)
      expect(gw.request(1).aborted).toBe(true)
      expect(clock.pending).toBe(0)
    })

    it('aborts the rest when more than 64 KB follow the last event', async () => {
      const { gw, clock, push, o } = await fed()
      await push(ev('done'))
      for (let i = 0; i < 9; i++) await push(`: ${'p'.repeat(8_000)}\n`)
      expect(o.completed).toBe(true)
      expect(gw.request(1).aborted).toBe(true)
      expect(clock.pending).toBe(0)
    })

    it('emits nothing after the last event, and decodes nothing more', async () => {
      const decoded: string[] = []
      const { client, gw } = fakeClient(() => sse('fed'), { timeoutMs: 1_000, pushBodies: bodies === 'pushed' })
      const o = observe(sse$(client, SPEC, { ...options, decode: (json) => (decoded.push((json as Ev).type), decode(json)) }))
      await settle()
      gw.request(1).fed!.push(ev('done') + ev('late'))
      await settle()
      expect(o.values).toEqual([{ type: 'done' }])
      expect(decoded).toEqual(['done'])
    })

    it('reads up to 64 KB after the last event to the end', async () => {
      const { gw, clock, body, push, o } = await fed()
      await push(ev('done'))
      for (let i = 0; i < 8; i++) await push(`: ${'p'.repeat(8 * 1024 - 3)}\n`)
      body.end()
      await settle()
      expect(o.completed).toBe(true)
      expect(gw.request(1)).toMatchObject({ readToEnd: true, aborted: false, bytesRead: ev('done').length + 64 * 1024 })
      expect(clock.pending).toBe(0)
    })

    it('drains a reply that arrives in one chunk larger than maxEventBytes, when it ends with the last event', async () => {
      const { gw, body, o } = await fed({ maxEventBytes: 1_000 })
      body.push(ev('a') + `: ${'p'.repeat(2_000)}\n` + ev('done'))
      body.end()
      expect(await o.done).toMatchObject({ values: [{ type: 'a' }, { type: 'done' }], completed: true })
      await settle()
      expect(gw.request(1)).toMatchObject({ readToEnd: true, aborted: false })
    })

    it('a network failure while draining ends the drain quietly: the stream stays completed and no timer is left', async () => {
      const { clock, body, push, o } = await fed()
      await push(ev('done'))
      body.fail(networkError('ECONNRESET'))
      await settle()
      expect(o).toMatchObject({ completed: true, error: undefined })
      expect(clock.pending).toBe(0)
    })
  })

  describe('sse$: unsubscribing', () => {
    it('in the middle of a stream: aborts the request, clears the idle timer, emits nothing more', async () => {
      const { gw, clock, push, o } = await fed()
      await push(ev('a'))
      o.subscription.unsubscribe()
      expect(gw.request(1).aborted).toBe(true)
      expect(clock.pending).toBe(0)
      await push(ev('b'))
      expect(o.values).toEqual([{ type: 'a' }])
    })

    it('just as the budget admits it: no idle timer is left', async () => {
      const { gw, clock, client } = fakeClient(() => sse('fed'), { timeoutMs: 1_000, maxConcurrency: 1, pushBodies: bodies === 'pushed' })
      const first = observe(sse$(client, SPEC, options))
      const second = observe(sse$(client, SPEC, options))
      await settle()
      expect(gw.requests).toHaveLength(1)
      // Leaving the first admits the second at once; the second is left before it can go on.
      first.subscription.unsubscribe()
      second.subscription.unsubscribe()
      await settle()
      expect(clock.pending).toBe(0)
      clock.advance(5_000)
      expect(second.error).toBeUndefined()
    })

    it('before the headers: aborts the request and clears the idle timer', async () => {
      const { gw, clock, o } = run(() => never())
      await settle()
      o.subscription.unsubscribe()
      expect(gw.request(1).aborted).toBe(true)
      expect(clock.pending).toBe(0)
    })
  })
})
