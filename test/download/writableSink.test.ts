import { describe, expect, it } from 'vitest'
import { writableSink } from '../../src/download/writableSink.js'
import type { WritableLike } from '../../src/download/types.js'

/** A stream-like target that records what it is given; `fail` makes its next write report an error. */
function stream(): WritableLike & { chunks: string[]; ended: number; fail?: Error } {
  const s = {
    chunks: [] as string[],
    ended: 0,
    fail: undefined as Error | undefined,
    write(chunk: Uint8Array, callback: (error?: Error | null) => void) {
      s.chunks.push(new TextDecoder().decode(chunk))
      const error = s.fail
      queueMicrotask(() => callback(error ?? null))
      return true
    },
    end(callback?: () => void) {
      s.ended++
      queueMicrotask(() => callback?.())
    },
  }
  return s
}

const bytes = (text: string) => new TextEncoder().encode(text)

describe('writableSink', () => {
  it('passes each chunk to the stream and ends it on finish', async () => {
    const target = stream()
    const sink = writableSink(target, true)
    await sink.write(bytes('a'))
    await sink.write(bytes('b'))
    expect(target.ended).toBe(0)
    expect(await sink.finish('video/mp4')).toEqual({})
    expect(target.chunks).toEqual(['a', 'b'])
    expect(target.ended).toBe(1)
  })

  it('leaves the stream open on finish when told not to end it', async () => {
    const target = stream()
    const sink = writableSink(target, false)
    await sink.write(bytes('a'))
    expect(await sink.finish(undefined)).toEqual({})
    expect(target.ended).toBe(0)
  })

  it('can begin again only while nothing was written to the stream', async () => {
    const sink = writableSink(stream(), true)
    expect(await sink.restart()).toBe(true)
    await sink.write(bytes('a'))
    expect(await sink.restart()).toBe(false)
  })

  it('a write the stream reports as failed rejects with its error', async () => {
    const target = stream()
    target.fail = new Error('EPIPE')
    await expect(writableSink(target, true).write(bytes('a'))).rejects.toBe(target.fail)
  })

  it('discard leaves the stream as it is (it is the caller\'s)', async () => {
    const target = stream()
    const sink = writableSink(target, true)
    await sink.write(bytes('a'))
    await sink.discard()
    expect(target.ended).toBe(0)
    expect(target.chunks).toEqual(['a'])
  })
})
