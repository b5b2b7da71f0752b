import { describe, expect, it, vi } from 'vitest'
import { scrubLines } from '../../src/server/scrubLines.js'

const KEY = 'sk-live-0123456789abcdef'
const encode = (text: string) => new TextEncoder().encode(text)

/** Feeds `chunks` through the transform; returns what came out after each chunk, and at the end. */
async function run(secret: string, chunks: string[]): Promise<string[]> {
  const transform = scrubLines(secret)
  const writer = transform.writable.getWriter()
  const reader = transform.readable.getReader()
  const decoder = new TextDecoder()
  const outputs: string[] = []
  let pending = reader.read()
  for (const chunk of chunks) {
    await writer.write(encode(chunk))
    // The write settles once the transform has run, so whatever the chunk released is out by the next turn.
    const out = await Promise.race([pending, new Promise<null>((resolve) => setImmediate(() => resolve(null)))])
    if (out && !out.done) {
      outputs.push(decoder.decode(out.value))
      pending = reader.read()
    } else outputs.push('')
  }
  await writer.close()
  let rest = ''
  for (let r = await pending; !r.done; r = await reader.read()) rest += decoder.decode(r.value)
  return [...outputs, rest]
}

/** Everything that comes out of `chunks`. */
async function all(secret: string, chunks: string[]): Promise<string> {
  const transform = scrubLines(secret)
  const writer = transform.writable.getWriter()
  const read = new Response(transform.readable).text()
  for (const chunk of chunks) await writer.write(encode(chunk))
  await writer.close()
  return read
}

describe('scrubLines', () => {
  it('masks every key on a line, the text between them kept in place', async () => {
    const out = await all(KEY, [`data: {"a":"${KEY}","b":"x ${KEY} y","c":"sk-live-\\u0030123456789abcdef"}\n`, `data: ${KEY}\n`])
    expect(out).toBe('data: {"a":"[redacted]","b":"x [redacted] y","c":"[redacted]"}\ndata: [redacted]\n')
  })

  it('masks the key wherever a chunk boundary cuts it', async () => {
    const text = `data: {"message":"bad key ${KEY}"}\n\n`
    for (let at = 1; at < text.length; at++) {
      const out = await all(KEY, [text.slice(0, at), text.slice(at)])
      expect(out, `cut at ${at}`).toBe('data: {"message":"bad key [redacted]"}\n\n')
    }
  })

  it('passes each complete line on at once; only an unfinished line waits', async () => {
    const outputs = await run(KEY, ['event: a\ndata: 1', '\n\nevent: b\n', 'data: 2\n\n'])
    expect(outputs).toEqual(['event: a\n', 'data: 1\n\nevent: b\n', 'data: 2\n\n', ''])
  })

  it('keeps multibyte characters whole across chunks', async () => {
    const transform = scrubLines(KEY)
    const writer = transform.writable.getWriter()
    const read = new Response(transform.readable).text()
    for (const byte of encode('data: café — ok\n\n')) await writer.write(new Uint8Array([byte]))
    await writer.close()
    expect(await read).toBe('data: café — ok\n\n')
  })

  it('leaves the stream alone for a placeholder key too short to mask', async () => {
    expect(await all('dev', ['data: dev\n\n'])).toBe('data: dev\n\n')
  })

  it('masks a key of the shortest maskable length', async () => {
    expect(await all('sk-12345', ['data: sk-12345\n\n'])).toBe('data: [redacted]\n\n')
  })

  it('holds nothing back for a placeholder key: an unfinished line passes at once', async () => {
    expect(await run('dev', ['data: 1', '\n\n'])).toEqual(['data: 1', '\n\n', ''])
  })

  it('sends no empty chunks while a line is unfinished, and ends with the last unfinished line masked', async () => {
    expect(await chunksOf(KEY, ['data: ', 'x', '\n\n'])).toEqual(['data: x\n\n'])
    expect(await chunksOf(KEY, ['data: 1\n\n'])).toEqual(['data: 1\n\n'])
    expect(await chunksOf(KEY, ['data: 1\n\ndata: ', `${KEY}`])).toEqual(['data: 1\n\n', 'data: [redacted]'])
  })

  it('ends with a character cut off at the very end as a replacement character', async () => {
    expect(await chunksOf(KEY, ['data: 1\n\n', 'x\u00e9'], [0xc3])).toEqual(['data: 1\n\n', 'x\u00e9\ufffd'])
  })

  it('copies a long line once, however many chunks it came in', async () => {
    // Every copy of bytes into a new array goes through TypedArray.prototype.set: count what is copied.
    const set = vi.spyOn(Object.getPrototypeOf(Uint8Array.prototype) as { set: Uint8Array['set'] }, 'set')
    try {
      const size = 512 * 1024
      const chunk = encode('x'.repeat(1024))
      const transform = scrubLines(KEY)
      const writer = transform.writable.getWriter()
      const read = new Response(transform.readable).arrayBuffer()
      set.mockClear()
      for (let at = 0; at < size; at += chunk.length) await writer.write(chunk)
      await writer.write(encode('\n'))
      await writer.close()
      expect((await read).byteLength).toBe(size + 1)
      const copied = set.mock.calls.reduce((sum, [source]) => sum + (source as ArrayLike<number>).length, 0)
      // Joined once: the line and its end. Joining each chunk to what came before would copy 128 MiB.
      expect(copied).toBe(size + 1)
    } finally {
      set.mockRestore()
    }
  })

  it('holds a line of up to 16 MiB characters, and breaks the stream on a longer one', async () => {
    const max = 16 * 1024 * 1024
    const longest = 'x'.repeat(max)
    expect((await all(KEY, [longest.slice(0, max / 2), longest.slice(max / 2), '\n'])).length).toBe(max + 1)
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode(longest))
        controller.enqueue(encode('x'))
        controller.close()
      },
    })
    await expect(new Response(source.pipeThrough(scrubLines(KEY))).text()).rejects.toThrow(`A stream line is longer than ${max} characters.`)
  })
})

/** The chunks that come out of `chunks` (and of `tail`, raw bytes written last), each decoded on its own. */
async function chunksOf(secret: string, chunks: string[], tail?: number[]): Promise<string[]> {
  const transform = scrubLines(secret)
  const writer = transform.writable.getWriter()
  const out: string[] = []
  const reading = (async () => {
    const reader = transform.readable.getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(new TextDecoder().decode(r.value))
  })()
  for (const chunk of chunks) await writer.write(encode(chunk))
  if (tail) await writer.write(new Uint8Array(tail))
  await writer.close()
  await reading
  return out
}
