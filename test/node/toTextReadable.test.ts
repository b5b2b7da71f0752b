import { once } from 'node:events'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Observable, Subject, of } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { isBufferOverflowError } from '../../src/errors/BufferOverflowError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { toTextReadable } from '../../src/node/toTextReadable.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'

const event = (type: string, fields: Record<string, unknown> = {}) => ({ type, sequence_number: 1, item_id: 'm', output_index: 0, content_index: 0, ...fields }) as unknown as ResponseStreamEvent

async function readAll(readable: NodeJS.ReadableStream): Promise<unknown[]> {
  const chunks: unknown[] = []
  for await (const chunk of readable) chunks.push(chunk)
  return chunks
}

describe('toTextReadable', () => {
  it.each([[0], [-1], [1.5], [Number.NaN]])('refuses a highWaterMark of %s with InvalidRequestError, before subscribing', (highWaterMark) => {
    let subscribed = false
    let error: unknown
    try {
      toTextReadable(new Observable<string>(() => void (subscribed = true)), { highWaterMark })
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error) && error.message).toBe(`Invalid toTextReadable options: highWaterMark: must be an integer of at least 1 (got ${highWaterMark}). Nothing was sent.`)
    expect(subscribed).toBe(false)
  })

  it('accepts a highWaterMark of 1', async () => {
    expect((await readAll(toTextReadable(of('a', 'b'), { highWaterMark: 1 }))).join('')).toBe('ab')
  })

  it('gives text chunks (UTF-8 strings), not bytes', async () => {
    const chunks = await readAll(toTextReadable(of('café', ' ☕')))
    expect(chunks.every((chunk) => typeof chunk === 'string')).toBe(true)
    expect(chunks.join('')).toBe('café ☕')
  })

  it('takes only the output text deltas of a stream of events: not refusals, not function arguments', async () => {
    const events$ = of(
      event('response.created', { response: {} }),
      event('response.output_text.delta', { delta: 'Hel' }),
      event('response.refusal.delta', { delta: 'I refuse' }),
      event('response.function_call_arguments.delta', { delta: '{"city":' }),
      event('response.output_text.delta', { delta: 'lo' }),
      event('response.output_text.done', { text: 'Hello' }),
    )
    expect((await readAll(toTextReadable(events$))).join('')).toBe('Hello')
  })

  it('holds exactly highWaterMark characters for a destination that is behind, and one more destroys it with BufferOverflowError in characters', async () => {
    const subject = new Subject<string>()
    const readable = toTextReadable(subject, { highWaterMark: 20_000 })
    const errors: unknown[] = []
    readable.on('error', (error) => errors.push(error))
    readable.read(0) // subscribes; nothing reads after this
    await nextTurn()
    const full = 'f'.repeat(readable.readableHighWaterMark) // the stream's own buffer, full: it asks for no more
    subject.next(full)
    subject.next('h'.repeat(19_990))
    subject.next('0123456789')
    await nextTurn()
    expect(readable.destroyed).toBe(false)
    subject.next('!')
    expect(readable.destroyed).toBe(true)
    expect(subject.observed).toBe(false)
    const error = readable.errored
    expect(isBufferOverflowError(error) && [error.highWaterMark, error.unit]).toEqual([20_000, 'characters'])
    await nextTurn()
    expect(errors).toEqual([error])
  })

  it('delivers the text held back once the destination reads again', async () => {
    const subject = new Subject<string>()
    const readable = toTextReadable(subject, { highWaterMark: 20_000 })
    readable.read(0)
    await nextTurn()
    const full = 'f'.repeat(readable.readableHighWaterMark)
    subject.next(full)
    subject.next('h'.repeat(19_990))
    subject.next('0123456789')
    subject.complete()
    expect((await readAll(readable)).join('')).toBe(`${full}${'h'.repeat(19_990)}0123456789`)
  })

  it('can be destroyed before it was ever read: nothing is subscribed and no error is raised', async () => {
    let subscribed = false
    const readable = toTextReadable(new Observable<string>(() => void (subscribed = true)))
    readable.destroy()
    await once(readable, 'close')
    expect(readable.errored).toBeNull()
    expect(subscribed).toBe(false)
  })
})
