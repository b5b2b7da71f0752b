import { setImmediate as nextTurn } from 'node:timers/promises'
import { Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { isBufferOverflowError } from '../../src/errors/BufferOverflowError.js'
import { toReadable } from '../../src/node/toReadable.js'

describe('toReadable', () => {
  it('holds one value in the stream, highWaterMark in the iterator, and is destroyed at the next with BufferOverflowError, unread', async () => {
    const subject = new Subject<number>()
    const readable = toReadable(subject, { highWaterMark: 2 })
    const errors: unknown[] = []
    readable.on('error', (error) => errors.push(error))
    readable.read(0) // a reader looks once, then stops reading
    await nextTurn()
    expect(subject.observed).toBe(true)
    for (let i = 1; i <= 3; i++) {
      subject.next(i)
      await nextTurn()
    }
    expect(readable.readableLength).toBe(1)
    expect(readable.destroyed).toBe(false)
    subject.next(4)
    expect(readable.destroyed).toBe(true)
    expect(isBufferOverflowError(readable.errored) && readable.errored.highWaterMark).toBe(2)
    expect(subject.observed).toBe(false)
    await nextTurn()
    expect(errors).toEqual([readable.errored])
  })

  it('is an object-mode stream: values pass as they are', async () => {
    const subject = new Subject<{ n: number }>()
    const readable = toReadable(subject)
    const seen: unknown[] = []
    const reading = (async () => {
      for await (const value of readable) seen.push(value)
    })()
    await nextTurn()
    subject.next({ n: 1 })
    subject.next({ n: 2 })
    subject.complete()
    await reading
    expect(seen).toEqual([{ n: 1 }, { n: 2 }])
  })
})
