import { describe, expect, it } from 'vitest'
import { scrubbedChunks } from '../../src/server/scrubbedChunks.js'
import { escaped, leaks, SECRET } from '../security/maskingGateway.js'

const KEY = 'sk-live-0123456789abcdef'
const encode = (text: string) => new TextEncoder().encode(text)
const decode = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks))

/** An async iterable of `chunks` that records how far it was read and whether it was stopped; `hold` makes the read after the last chunk wait until stopped. */
function source(chunks: Uint8Array[], hold = false) {
  const seen = { reads: 0, stopped: false }
  let wake: (() => void) | undefined
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const chunk = chunks[seen.reads++]
        if (chunk) return { done: false, value: chunk }
        if (hold && !seen.stopped) await new Promise<void>((resolve) => (wake = resolve))
        return { done: true, value: undefined }
      },
      return: async () => {
        seen.stopped = true
        wake?.()
        return { done: true, value: undefined }
      },
    }),
  }
  return { iterable, seen }
}

async function all(secret: string, chunks: Uint8Array[]): Promise<Uint8Array[]> {
  const out: Uint8Array[] = []
  for await (const chunk of scrubbedChunks(source(chunks).iterable, secret)) out.push(chunk)
  return out
}

describe('scrubbedChunks', () => {
  it('masks the key, raw or escaped, wherever a chunk boundary cuts it', async () => {
    const raw = encode(`data: {"message":"bad key ${KEY}"}\n\n`)
    const hidden = encode(`data: {"message":"caf\\u00e9 ${escaped(SECRET, 2)} end"}\r\n\r\n`)
    for (let at = 1; at < raw.length; at++) {
      expect(decode(await all(KEY, [raw.subarray(0, at), raw.subarray(at)])), `cut at ${at}`).toBe('data: {"message":"bad key [redacted]"}\n\n')
    }
    for (let at = 1; at < hidden.length; at++) {
      const out = decode(await all(SECRET, [hidden.subarray(0, at), hidden.subarray(at)]))
      const { message } = JSON.parse(out.slice('data: '.length)) as { message: string }
      expect([message, leaks(out)], `cut at ${at}`).toEqual(['café [redacted] end', false])
    }
  })

  it('gives a chunk’s complete lines before the next chunk is read, and ends with the unfinished last line masked', async () => {
    const { iterable, seen } = source([encode('data: 1\n\ndata: '), encode(`x ${KEY}\n\ndata: `), encode(KEY)])
    const chunks = scrubbedChunks(iterable, KEY)[Symbol.asyncIterator]()
    expect(decode([(await chunks.next()).value!])).toBe('data: 1\n\n')
    expect(seen.reads).toBe(1)
    expect(decode([(await chunks.next()).value!])).toBe('data: x [redacted]\n')
    expect(decode([(await chunks.next()).value!])).toBe('\n')
    expect(seen.reads).toBe(2)
    expect(decode([(await chunks.next()).value!])).toBe('data: [redacted]')
    expect((await chunks.next()).done).toBe(true)
  })

  it('passes the lines after a chunk’s first on as a view of the chunk itself, not a copy', async () => {
    const second = encode('1\n\ndata: 2\n\ndata: 3\n\n')
    const out = await all(KEY, [encode('data: '), second])
    expect(out.map((c) => decode([c]))).toEqual(['data: 1\n', '\ndata: 2\n\ndata: 3\n\n'])
    expect(out[1]!.buffer).toBe(second.buffer)
  })

  it('stops its source at once when stopped, even while a read is pending', async () => {
    const { iterable, seen } = source([encode('data: 1\n\n')], true)
    const chunks = scrubbedChunks(iterable, KEY)[Symbol.asyncIterator]()
    await chunks.next()
    const pending = chunks.next()
    await chunks.return!()
    expect(seen.stopped).toBe(true)
    expect(await pending).toEqual({ done: true, value: undefined })
  })

  it('fails on a line longer than 16 MiB, and stops its source', async () => {
    const { iterable, seen } = source([new Uint8Array(16 * 1024 * 1024).fill(0x78), encode('x')], true)
    const reading = (async () => {
      for await (const _ of scrubbedChunks(iterable, KEY));
    })()
    await expect(reading).rejects.toThrow(`A stream line is longer than ${16 * 1024 * 1024} characters.`)
    expect(seen.stopped).toBe(true)
  })

  it('is its source itself for a placeholder key too short to mask', () => {
    const { iterable } = source([encode('data: dev\n\n')])
    expect(scrubbedChunks(iterable, 'dev')).toBe(iterable)
  })
})
