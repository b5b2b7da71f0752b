import { from, Observable, of, Subject, throwError, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../src/index.js'
import { parseSse, type SseMessage } from '../../src/streams/parseSse.js'
import { sseJson } from '../../src/streams/sseJson.js'
import { recordedMessages, recordedStream } from '../helpers/fixtures.js'

/** Runs chunks through parseSse synchronously. */
function parse(chunks: string[]): { event: string | undefined; data: string }[] {
  let out: SseMessage[] | undefined
  let error: unknown
  from(chunks)
    .pipe(parseSse(), toArray())
    .subscribe({ next: (v) => (out = v), error: (e: unknown) => (error = e) })
  if (error) throw error
  return out!.map((m) => ({ event: m.event, data: m.data }))
}

const STREAM = recordedStream()
const EXPECTED = recordedMessages()

describe('parseSse', () => {
  it('reads the recorded stream: comments skipped, \\r\\n and \\n line ends, multi-line data joined', () => {
    expect(parse([STREAM])).toEqual(EXPECTED)
    // The three data lines of one frame are joined with "\n".
    expect(EXPECTED[5]!.data.split('\n')).toHaveLength(3)
  })

  it('gives the same messages however the text is split in two (every position)', () => {
    for (let i = 0; i <= STREAM.length; i++) {
      const got = parse([STREAM.slice(0, i), STREAM.slice(i)])
      if (JSON.stringify(got) !== JSON.stringify(EXPECTED)) {
        expect({ split: i, around: JSON.stringify(STREAM.slice(i - 5, i + 5)), got }).toEqual({ split: i, around: JSON.stringify(STREAM.slice(i - 5, i + 5)), got: EXPECTED })
      }
    }
  })

  it('gives the same messages with one chunk per character', () => {
    expect(parse([...STREAM.split('')])).toEqual(EXPECTED)
  })

  it('gives the same messages when split in three at every pair of positions around line ends', () => {
    const ends = [...STREAM.matchAll(/\r\n|\n/g)].map((m) => m.index!)
    for (const e of ends) {
      for (const i of [e - 1, e, e + 1]) {
        for (const j of [e + 1, e + 2, e + 3]) {
          if (j <= i) continue
          expect(parse([STREAM.slice(0, i), STREAM.slice(i, j), STREAM.slice(j)])).toEqual(EXPECTED)
        }
      }
    }
  })

  it('keeps \\r\\n split between two chunks as one line end (no phantom blank line)', () => {
    const text = 'data: a\r\ndata: b\r\n\r\n'
    const cr = text.indexOf('\r')
    expect(parse([text.slice(0, cr + 1), text.slice(cr + 1)])).toEqual([{ event: undefined, data: 'a\nb' }])
  })

  it('accepts bare \\r line ends', () => {
    expect(parse(['event: x\rdata: 1\r\rdata: 2\r\r'])).toEqual([
      { event: 'x', data: '1' },
      { event: undefined, data: '2' },
    ])
  })

  it('delivers a last event that has no closing blank line', () => {
    expect(parse(['data: {"a":1}\n\ndata: {"b":2}'])).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: undefined, data: '{"b":2}' },
    ])
    expect(parse(['data: last\r'])).toEqual([{ event: undefined, data: 'last' }])
  })

  it('emits nothing for a stream of comments and blank lines', () => {
    expect(parse([': ping\n\n', ':\r\n\r\n', '\n'])).toEqual([])
  })

  it('keeps the text of a data line exactly, colons and leading spaces after the first included', () => {
    expect(parse(['data:  two spaces: and a colon\n\n', 'data:no space\n\n'])).toEqual([
      { event: undefined, data: ' two spaces: and a colon' },
      { event: undefined, data: 'no space' },
    ])
  })

  it('passes the source error through', () => {
    const err = new Error('cut')
    let seen: unknown
    const values: SseMessage[] = []
    new Observable<string>((s) => {
      s.next('data: 1\n\n')
      s.error(err)
    })
      .pipe(parseSse())
      .subscribe({ next: (m) => values.push(m), error: (e: unknown) => (seen = e) })
    expect(values.map((m) => m.data)).toEqual(['1'])
    expect(seen).toBe(err)
  })

  it('does not deliver a half-received event when the source fails', () => {
    const values: SseMessage[] = []
    of('data: 1\n\ndata: par')
      .pipe((s) => new Observable<string>((o) => s.subscribe({ next: (v) => o.next(v), complete: () => o.error(new Error('cut')) })), parseSse())
      .subscribe({ next: (m) => values.push(m), error: () => {} })
    expect(values.map((m) => m.data)).toEqual(['1'])
  })

  it('unsubscribes from the chunks when unsubscribed', () => {
    const chunks = new Subject<string>()
    const values: string[] = []
    const sub = chunks.pipe(parseSse()).subscribe((m) => values.push(m.data))
    chunks.next('data: 1\n\n')
    expect(chunks.observed).toBe(true)
    sub.unsubscribe()
    expect(chunks.observed).toBe(false)
    expect(values).toEqual(['1'])
  })

  it('keeps no state between subscriptions (a half line of one is not carried into the next)', () => {
    const op = parseSse()
    const cut = new Observable<string>((s) => {
      s.next('data: half')
      s.error(new Error('cut'))
    })
    const first: string[] = []
    cut.pipe(op).subscribe({ next: (m) => first.push(m.data), error: () => {} })
    const second: string[] = []
    of('data: whole\n\n').pipe(op).subscribe((m) => second.push(m.data))
    expect(first).toEqual([])
    expect(second).toEqual(['whole'])
  })
})

describe('sseJson', () => {
  const run = (messages: Partial<SseMessage>[]) => {
    const out: unknown[] = []
    let error: unknown
    from(messages.map((m) => ({ id: undefined, event: undefined, data: '', ...m }) as SseMessage))
      .pipe(sseJson())
      .subscribe({ next: (v) => out.push(v), error: (e: unknown) => (error = e) })
    return { out, error }
  }

  it('parses each data as JSON and drops the [DONE] sentinel', () => {
    expect(run([{ data: '{"type":"a","n":1}' }, { data: '[DONE]' }]).out).toEqual([{ type: 'a', n: 1 }])
  })

  it('takes the SSE event name as type when the payload has none, and keeps the payload’s own type otherwise', () => {
    expect(run([{ event: 'response.x', data: '{"n":1}' }, { event: 'other', data: '{"type":"mine"}' }]).out).toEqual([
      { type: 'response.x', n: 1 },
      { type: 'mine' },
    ])
  })

  it('ends with a ValidationError holding the raw text when data is not JSON', () => {
    const { out, error } = run([{ data: '{"type":"a"}' }, { data: '{oops' }, { data: '{"type":"b"}' }])
    expect(out).toEqual([{ type: 'a' }])
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).payload).toBe('{oops')
  })

  it('passes a source error through', () => {
    const err = new Error('x')
    let seen: unknown
    throwError(() => err)
      .pipe(sseJson())
      .subscribe({ error: (e: unknown) => (seen = e) })
    expect(seen).toBe(err)
  })
})
