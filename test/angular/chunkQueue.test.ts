import { describe, expect, it } from 'vitest'
import { ChunkQueue } from '../../src/angular/chunkQueue.js'

const bytes = (text: string) => new TextEncoder().encode(text)

async function drain(queue: ChunkQueue): Promise<{ chunks: string[]; error?: unknown }> {
  const chunks: string[] = []
  try {
    for await (const chunk of queue) chunks.push(new TextDecoder().decode(chunk))
  } catch (error) {
    return { chunks, error }
  }
  return { chunks }
}

describe('ChunkQueue', () => {
  it('gives the chunks pushed, in order, and ends at end(); empty chunks and chunks after the end are not passed on', async () => {
    const queue = new ChunkQueue()
    const reading = drain(queue)
    queue.push(bytes('a'))
    queue.push(new Uint8Array(0))
    queue.push(bytes('bc'))
    queue.end()
    queue.push(bytes('late'))
    expect(await reading).toEqual({ chunks: ['a', 'bc'] })
  })

  it('throws the failure after the chunks already pushed', async () => {
    const queue = new ChunkQueue()
    const failure = new TypeError('network')
    queue.push(bytes('a'))
    queue.fail(failure)
    queue.push(bytes('b'))
    expect(await drain(queue)).toEqual({ chunks: ['a'], error: failure })
  })

  it('says the reply broke off when it fails without an error', async () => {
    const queue = new ChunkQueue()
    queue.fail(undefined)
    const { error } = await drain(queue)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('The reply broke off.')
  })

  it('ignores a failure after the end: a whole body stays whole', async () => {
    const queue = new ChunkQueue()
    queue.push(bytes('a'))
    queue.end()
    queue.fail(new Error('late'))
    expect(await drain(queue)).toEqual({ chunks: ['a'] })
  })

  it('text() decodes a character split between chunks', async () => {
    const queue = new ChunkQueue()
    const all = bytes('café ☕')
    const text = queue.text()
    for (const byte of all) queue.push(Uint8Array.of(byte))
    queue.end()
    expect(await text).toBe('café ☕')
  })
})
