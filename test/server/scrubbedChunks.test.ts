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

describe('scrubbedChunks: the pieces it gives and the end', () => {
  it('ends with an unfinished last line as a value, not as the end itself', async () => {
    expect((await all(KEY, [encode('data: 1\n'), encode(`data: ${KEY}`)])).map((c) => decode([c]))).toEqual(['data: 1\n', 'data: [redacted]'])
  })

  it('gives a chunk of whole lines, with nothing held before it, as that one chunk', async () => {
    const second = encode('data: 2\n\ndata: 3\n\n')
    const out = await all(KEY, [encode('data: 1\n\n'), second])
    expect(out.map((c) => decode([c]))).toEqual(['data: 1\n\n', 'data: 2\n\ndata: 3\n\n'])
    expect(out[1]!.buffer).toBe(second.buffer)
  })

  it('takes a lone CR as a line end: such lines are not held back', async () => {
    expect((await all(KEY, [encode('data: 1\r\r'), encode('data: 2\r\r')])).map((c) => decode([c]))).toEqual(['data: 1\r\r', 'data: 2\r\r'])
  })

  it('reads its source no further once it has ended, or has been stopped with pieces still to give', async () => {
    const ended = source([encode('data: 1\n\n')])
    const chunks = scrubbedChunks(ended.iterable, KEY)[Symbol.asyncIterator]()
    await chunks.next()
    expect(await chunks.next()).toEqual({ done: true, value: undefined })
    const reads = ended.seen.reads
    expect(await chunks.next()).toEqual({ done: true, value: undefined })
    expect(ended.seen.reads).toBe(reads)
    // Two pieces from the second chunk, one taken; then stopped, with a third chunk not yet read.
    const stopped = source([encode('data: '), encode('1\n\ndata: 2\n\n'), encode('data: 3\n\n')])
    const early = scrubbedChunks(stopped.iterable, KEY)[Symbol.asyncIterator]()
    expect(decode([(await early.next()).value!])).toBe('data: 1\n')
    await early.return!()
    expect(await early.next()).toEqual({ done: true, value: undefined })
    expect(stopped.seen.reads).toBe(2)
  })

  it('reads its source no further after a line too long, and gives the end after the failure', async () => {
    const { iterable, seen } = source([new Uint8Array(16 * 1024 * 1024 + 1).fill(0x78), encode('x\n')])
    const chunks = scrubbedChunks(iterable, KEY)[Symbol.asyncIterator]()
    await expect(chunks.next()).rejects.toThrow('A stream line is longer than')
    expect(await chunks.next()).toEqual({ done: true, value: undefined })
    expect(seen.reads).toBe(1)
  })

  it('takes a source whose iterator cannot be stopped (no return): stopping it, or a line too long, still ends it cleanly', async () => {
    const endless = (chunks: Uint8Array[]): AsyncIterable<Uint8Array> => ({
      [Symbol.asyncIterator]: () => ({ next: async () => ({ done: false, value: chunks.shift() ?? encode('data: more\n') }) }),
    })
    const chunks = scrubbedChunks(endless([encode('data: 1\n')]), KEY)[Symbol.asyncIterator]()
    await chunks.next()
    expect(await chunks.return!()).toEqual({ done: true, value: undefined })
    const long = scrubbedChunks(endless([new Uint8Array(16 * 1024 * 1024 + 1).fill(0x78)]), KEY)[Symbol.asyncIterator]()
    await expect(long.next()).rejects.toThrow('A stream line is longer than')
  })
})

describe('scrubbedChunks: masking bytes as they came', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))))

  it('passes bytes that are not UTF-8 on untouched beside a masked ASCII key', async () => {
    const out = await all(KEY, [bytes('data: ', [0xff, 0xfe], ` ${KEY}\n`)])
    expect(Buffer.concat(out)).toEqual(bytes('data: ', [0xff, 0xfe], ' [redacted]\n'))
  })

  it('masks a key with a character from U+0080 up, such as U+0080 itself', async () => {
    const key = 'sk-\u0080-0123456789abcdef'
    expect(decode(await all(key, [encode(`data: ${key}\n`)]))).toBe('data: [redacted]\n')
  })

  it('passes a line without the key on untouched, bytes that are not UTF-8 included, for a key that is not ASCII', async () => {
    const key = 'sk-café-0123456789abcdef'
    const line = bytes('data: ', [0xff], ' no key here\n')
    expect(Buffer.concat(await all(key, [line]))).toEqual(line)
  })
})
