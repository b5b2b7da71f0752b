import { describe, expect, it } from 'vitest'
import { sseReader } from '../../src/streams/parseSse.js'
import { recordedMessages, recordedStream } from '../helpers/fixtures.js'

const encoder = new TextEncoder()
const STREAM = recordedStream()
const BYTES = encoder.encode(STREAM)
const EXPECTED = recordedMessages()

interface Read {
  messages: { event: string | undefined; data: string; atEnd: boolean }[]
  tooLarge: number
}

/** Feeds the chunks (text or bytes) to a reader, then ends it. */
function read(chunks: (string | Uint8Array)[], { maxEventBytes = 1 << 30, end = true } = {}): Read {
  const out: Read = { messages: [], tooLarge: 0 }
  const reader = sseReader((m, atEnd) => out.messages.push({ event: m.event, data: m.data, atEnd }), maxEventBytes, () => out.tooLarge++)
  for (const chunk of chunks) reader.feed(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
  if (end) reader.end()
  return out
}

const plain = (r: Read) => r.messages.map(({ event, data }) => ({ event, data }))

describe('sseReader: the format', () => {
  it('reads the recorded stream: comments skipped, \\r\\n and \\n line ends, multi-line data joined with \\n', () => {
    expect(plain(read([STREAM]))).toEqual(EXPECTED)
    expect(EXPECTED[5]!.data.split('\n')).toHaveLength(3)
  })

  it('gives the same messages however the bytes are split in two (every position, inside multibyte characters and \\r\\n)', () => {
    for (let i = 0; i <= BYTES.length; i++) {
      const got = plain(read([BYTES.subarray(0, i), BYTES.subarray(i)]))
      if (JSON.stringify(got) !== JSON.stringify(EXPECTED)) expect({ split: i, got }).toEqual({ split: i, got: EXPECTED })
    }
  })

  it('gives the same messages with one byte per chunk', () => {
    expect(plain(read([...BYTES].map((b) => Uint8Array.of(b))))).toEqual(EXPECTED)
  })

  it('keeps a \\r\\n split between two chunks as one line end (no phantom blank line)', () => {
    const text = 'data: a\r\ndata: b\r\n\r\n'
    const cr = text.indexOf('\r')
    expect(plain(read([text.slice(0, cr + 1), text.slice(cr + 1)]))).toEqual([{ event: undefined, data: 'a\nb' }])
  })

  it('accepts bare \\r line ends', () => {
    expect(plain(read(['event: x\rdata: 1\r\rdata: 2\r\r']))).toEqual([
      { event: 'x', data: '1' },
      { event: undefined, data: '2' },
    ])
  })

  it('keeps the text of a data line exactly, colons and spaces after the first included, with or without a space after the colon', () => {
    expect(plain(read(['data:  two spaces: and a colon\n\n', 'data:no space\n\n']))).toEqual([
      { event: undefined, data: ' two spaces: and a colon' },
      { event: undefined, data: 'no space' },
    ])
  })

  it('emits nothing for comments and blank lines', () => {
    expect(read([': ping\n\n', ':\r\n\r\n', '\n', ': OPENROUTER PROCESSING\n\n']).messages).toEqual([])
  })

  it('delivers messages as soon as their blank line arrives, flagged not atEnd', () => {
    const out: string[] = []
    const reader = sseReader((m, atEnd) => out.push(`${m.data}:${atEnd}`), 1 << 20, () => {})
    reader.feed(encoder.encode('data: 1\n\ndata: 2'))
    expect(out).toEqual(['1:false'])
    reader.feed(encoder.encode('\n\n'))
    expect(out).toEqual(['1:false', '2:false'])
  })

  it('delivers an event the body ended without closing, flagged atEnd (a last event or a cut one: the caller tells)', () => {
    expect(read(['data: {"a":1}\n\ndata: {"b":2}']).messages).toEqual([
      { event: undefined, data: '{"a":1}', atEnd: false },
      { event: undefined, data: '{"b":2}', atEnd: true },
    ])
    expect(read(['data: {"half"']).messages).toEqual([{ event: undefined, data: '{"half"', atEnd: true }])
  })

  it('delivers nothing at the end when the body ended between events', () => {
    expect(read(['data: 1\n\n', ': ping\n']).messages).toEqual([{ event: undefined, data: '1', atEnd: false }])
  })
})

describe('sseReader: bounded memory', () => {
  it('calls onTooLarge once an unfinished event passes maxEventBytes: an endless line', () => {
    const chunk = 'x'.repeat(1_000)
    const out = read(['data: ', ...Array.from({ length: 20 }, () => chunk)], { maxEventBytes: 10_000, end: false })
    expect(out.tooLarge).toBeGreaterThan(0)
    expect(out.messages).toEqual([])
  })

  it('calls onTooLarge for endless data lines with no blank line between them', () => {
    const out = read(Array.from({ length: 200 }, () => 'data: more and more\n'), { maxEventBytes: 2_000, end: false })
    expect(out.tooLarge).toBeGreaterThan(0)
    expect(out.messages).toEqual([])
  })

  it('calls onTooLarge at the first chunk past the limit, not before: the count is exact to within one chunk', () => {
    const calls: number[] = []
    let fed = 0
    const reader = sseReader(() => {}, 1_000, () => calls.push(fed))
    for (let i = 0; i < 20; i++) {
      fed += 100
      reader.feed(encoder.encode('y'.repeat(100)))
    }
    expect(calls[0]).toBe(1_100)
  })

  it('counts from the last complete event: many events, each under the limit, never trip it', () => {
    const event = `data: ${'e'.repeat(800)}\n\n`
    const out = read(Array.from({ length: 100 }, () => event), { maxEventBytes: 1_000 })
    expect(out.tooLarge).toBe(0)
    expect(out.messages).toHaveLength(100)
  })

  it('counts comments too, so a flood of pings cannot hide a growing buffer', () => {
    const out = read(Array.from({ length: 100 }, () => ': ping\n\n'), { maxEventBytes: 500, end: false })
    expect(out.tooLarge).toBeGreaterThan(0)
  })
})
