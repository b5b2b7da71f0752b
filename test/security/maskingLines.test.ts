import { describe, expect, it } from 'vitest'
import { scrubLines } from '../../src/server/scrubLines.js'
import { escaped, leaks, SECRET } from './maskingGateway.js'

const encoder = new TextEncoder()

/** What comes out of scrubLines(secret) for `chunks`, as text, and the chunks themselves. */
async function pipe(secret: string, chunks: Uint8Array[]): Promise<{ text: string; out: Uint8Array[] }> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
  const out: Uint8Array[] = []
  for await (const chunk of source.pipeThrough(scrubLines(secret)) as unknown as AsyncIterable<Uint8Array>) out.push(chunk)
  return { text: new TextDecoder().decode(Buffer.concat(out)), out }
}

/** Every `data:` value of an SSE text, JSON-decoded to its strings. */
function decodedData(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith('data: '))
    .map((line) => (JSON.parse(line.slice(6)) as { message: string }).message)
    .join('\n')
}

describe('scrubLines on escaped keys', () => {
  const stream = `event: error\ndata: {"type":"error","message":"caf\\u00e9 ${escaped(SECRET, 2)} end"}\r\n\r\ndata: {"type":"x","message":"ok \\u00e9"}\n\n`
  const bytes = encoder.encode(stream)

  it('masks an escaped key in an error event cut into two chunks at every byte', async () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const { text } = await pipe(SECRET, [bytes.subarray(0, cut), bytes.subarray(cut)])
      expect(leaks(decodedData(text)), `cut at ${cut}`).toBe(false)
      expect(decodedData(text)).toBe('café [redacted] end\nok é')
    }
  })

  it('masks it when every byte comes alone', async () => {
    const { text } = await pipe(SECRET, [...bytes].map((b) => Uint8Array.of(b)))
    expect(decodedData(text)).toBe('café [redacted] end\nok é')
  })

  it('passes lines without the key on as the very bytes that came, escapes of other characters included', async () => {
    const clean = encoder.encode('data: {"message":"caf\\u00e9 \\"x\\"\\n"}\n\n')
    const { out } = await pipe(SECRET, [clean])
    expect(out).toHaveLength(1)
    // Not a copy: a view of the same bytes.
    expect(out[0]!.buffer).toBe(clean.buffer)
    expect(out[0]).toEqual(clean)
  })

  it('masks a key that is not ASCII, raw or escaped, keeping the text around it whole', async () => {
    const key = 'clé-secrète-7f3a9c2e'
    const line = `data: {"message":"é ${key} ${escaped(key, 0)} ü"}\n\n`
    const { text } = await pipe(key, [encoder.encode(line).subarray(0, 9), encoder.encode(line).subarray(9)])
    expect(text).toBe('data: {"message":"é [redacted] [redacted] ü"}\n\n')
  })
})
