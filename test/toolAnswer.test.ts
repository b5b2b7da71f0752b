import { Observable, Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { ToolCallError } from '../src/errors/ToolCallError.js'
import type { ToolCall } from '../src/operators/toolCalls.js'
import { answer$, type ToolContext } from '../src/toolAnswer$.js'
import { collect, observe } from './helpers/collect.js'

const call: ToolCall = { name: 'get_weather', callId: 'call_1', arguments: { city: 'Paris' }, itemId: 'fc_1' }

describe('answer$', () => {
  it('gives the handler the arguments and the call with its round and a live signal', async () => {
    let seen: [unknown, ToolContext] | undefined
    await collect(answer$((args, context) => ((seen = [args, context]), 'ok'), call, 3))
    expect(seen![0]).toEqual({ city: 'Paris' })
    expect(seen![1]).toMatchObject({ ...call, round: 3 })
    expect(seen![1].signal.aborted).toBe(false)
  })

  it.each([
    ['a string, as it is', 'sunny', 'sunny'],
    ['an empty string, as it is', '', ''],
    ['a string that looks like JSON, as it is', '{"a":1}', '{"a":1}'],
    ['an object, as JSON', { t: 21, unit: 'C' }, '{"t":21,"unit":"C"}'],
    ['a number, as JSON', 21, '21'],
    ['nothing, as null', undefined, 'null'],
    ['null, as null', null, 'null'],
  ])('sends %s', async (_, value, text) => {
    for (const handler of [() => value, () => Promise.resolve(value), () => new Observable((s) => (s.next('earlier'), s.next(value), s.complete()))]) {
      expect(await collect(answer$(handler, call, 1))).toEqual({ values: [text], error: undefined, completed: true })
    }
  })

  it('sends null for an Observable that completes without a value', async () => {
    expect(await collect(answer$(() => new Observable((s) => s.complete()), call, 1))).toEqual({ values: ['null'], error: undefined, completed: true })
  })

  it.each([
    ['a BigInt', () => 10n],
    ['a circular object', () => {
      const o: Record<string, unknown> = {}
      o.self = o
      return o
    }],
  ])('ends in ToolCallError (handler-failed) for an output that cannot be written as JSON: %s', async (_, handler) => {
    const { values, error } = await collect(answer$(handler, call, 1))
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(ToolCallError)
    expect(error).toMatchObject({ reason: 'handler-failed', toolName: 'get_weather', callId: 'call_1' })
    expect((error as Error).cause).toBeInstanceOf(TypeError)
  })

  it('ends in ToolCallError (handler-failed) with the error as cause when the handler throws, rejects or errors', async () => {
    const offline = new Error('offline')
    const handlers = [
      () => {
        throw offline
      },
      () => Promise.reject(offline),
      () => new Observable(() => {
        throw offline
      }),
    ]
    for (const handler of handlers) {
      const { error } = await collect(answer$(handler, call, 1))
      expect(error).toBeInstanceOf(ToolCallError)
      expect(error).toMatchObject({ reason: 'handler-failed', cause: offline, message: 'The handler of "get_weather" failed on call call_1: Error: offline' })
    }
  })

  it('aborts the signal and unsubscribes the handler’s Observable when unsubscribed before the handler is done', () => {
    let signal: AbortSignal | undefined
    const pending = new Subject<string>()
    const o = observe(answer$((_, context) => ((signal = context.signal), pending), call, 1))
    expect(pending.observed).toBe(true)
    o.subscription.unsubscribe()
    expect(signal!.aborted).toBe(true)
    expect(pending.observed).toBe(false)
  })

  it('leaves the signal alone once the handler has answered, or has failed', async () => {
    const signals: AbortSignal[] = []
    const handlers = [
      (_: unknown, c: ToolContext) => (signals.push(c.signal), 'done'),
      (_: unknown, c: ToolContext) => (signals.push(c.signal), Promise.resolve({ ok: true })),
      (_: unknown, c: ToolContext) => (signals.push(c.signal), Promise.reject(new Error('no'))),
      (_: unknown, c: ToolContext) => (signals.push(c.signal), 10n),
    ]
    for (const handler of handlers) await collect(answer$(handler, call, 1))
    expect(signals.map((s) => s.aborted)).toEqual([false, false, false, false])
  })
})
