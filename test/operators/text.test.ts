import { EMPTY, from, Observable, of, Subject, throwError, toArray, concat } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { finalResponse } from '../../src/operators/finalResponse.js'
import { outputText, responseText } from '../../src/operators/outputText.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { taskUrls } from '../../src/operators/taskUrls.js'
import { textDeltas } from '../../src/operators/textDeltas.js'
import type { Response } from '../../src/validation/response.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { delta, lifecycle, response } from '../helpers/fixtures.js'

const ev = (e: Record<string, unknown>) => e as unknown as ResponseStreamEvent
const resp = (over: Record<string, unknown> = {}) => response(over) as unknown as Response

function run<T>(source: Observable<T>): { values: T[]; error: unknown; completed: boolean } {
  const state = { values: [] as T[], error: undefined as unknown, completed: false }
  source.subscribe({ next: (v) => state.values.push(v), error: (e: unknown) => (state.error = e), complete: () => (state.completed = true) })
  return state
}

const stream = [
  ev(lifecycle('response.created', 0)),
  ev(delta(1, 'Hel')),
  ev({ type: 'response.refusal.delta', sequence_number: 2, item_id: 'msg_1', delta: 'NOT TEXT' }),
  ev({ type: 'response.reasoning_text.delta', sequence_number: 3, item_id: 'r', delta: 'thinking' }),
  ev({ type: 'response.future_thing.delta', sequence_number: 4, delta: 'nope' }),
  ev(delta(5, 'lo ')),
  ev(delta(6, '🌍')),
  ev({ type: 'response.output_text.done', sequence_number: 7, item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hello 🌍' }),
  ev(lifecycle('response.completed', 8, { output_text: 'Hello 🌍' })),
]

describe('textDeltas', () => {
  it('emits the text deltas only, in order, as they arrive', () => {
    const src = new Subject<ResponseStreamEvent>()
    const out: string[] = []
    src.pipe(textDeltas()).subscribe((t) => out.push(t))
    src.next(stream[0]!)
    expect(out).toEqual([])
    src.next(stream[1]!)
    expect(out).toEqual(['Hel'])
    for (const e of stream.slice(2)) src.next(e)
    expect(out).toEqual(['Hel', 'lo ', '🌍'])
  })

  it('keeps empty deltas and passes errors and completion through', () => {
    const err = new Error('x')
    expect(run(from([ev(delta(1, '')), ev(delta(2, 'a'))]).pipe(textDeltas()))).toEqual({ values: ['', 'a'], error: undefined, completed: true })
    expect(run(concat(of(ev(delta(1, 'a'))), throwError(() => err)).pipe(textDeltas()))).toEqual({ values: ['a'], error: err, completed: false })
  })
})

describe('responseText', () => {
  it('joins only the output_text parts of message items that hold a content list', () => {
    const r = resp({
      output_text: '',
      output: [
        { id: 'r1', type: 'reasoning', content: [{ type: 'output_text', text: 'NOT AN ANSWER' }] },
        { id: 'm0', type: 'message', role: 'assistant' },
        {
          id: 'm1',
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'A' }, { type: 'output_text' }, { type: 'reasoning_text', text: 'hidden' }, { type: 'output_text', text: 'B' }],
        },
      ],
    })
    expect(responseText(r)).toBe('AB')
  })
})

describe('outputText', () => {
  it('from a stream: emits exactly the deltas joined, once, when the stream completes', () => {
    const src = new Subject<ResponseStreamEvent>()
    const out: string[] = []
    let completed = false
    src.pipe(outputText()).subscribe({ next: (t) => out.push(t), complete: () => (completed = true) })
    for (const e of stream) src.next(e)
    expect(out).toEqual([])
    src.complete()
    expect(out).toEqual(['Hello 🌍'])
    expect(completed).toBe(true)
  })

  it('prefers the streamed deltas over the final Response’s text', () => {
    const events = [ev(delta(1, 'streamed')), ev(lifecycle('response.completed', 2, { output_text: 'different' }))]
    expect(run(from(events).pipe(outputText())).values).toEqual(['streamed'])
  })

  it('from a stream without deltas: the text of the final Response', () => {
    const events = [ev(lifecycle('response.created', 0)), ev(lifecycle('response.completed', 1, { output_text: 'from the response' }))]
    expect(run(from(events).pipe(outputText())).values).toEqual(['from the response'])
  })

  it('from a Response: its output_text', () => {
    expect(run(of(resp({ output_text: 'Hi!' })).pipe(outputText())).values).toEqual(['Hi!'])
  })

  it('from Response snapshots (background): the text of the last one', () => {
    const snapshots = [resp({ status: 'queued', output: [], output_text: null }), resp({ status: 'in_progress', output_text: 'partial' }), resp({ status: 'completed', output_text: 'final' })]
    expect(run(from(snapshots).pipe(outputText())).values).toEqual(['final'])
  })

  it('from a Response without output_text: its message text parts joined, other parts and items skipped', () => {
    const r = resp({
      output_text: undefined,
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'IGNORED' }] },
        { id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One, ' }, { type: 'refusal', refusal: 'IGNORED' }] },
        { id: 'fc', type: 'function_call', name: 'f', arguments: '{}' },
        { id: 'm2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'two.' }] },
      ],
    })
    expect(run(of(r).pipe(outputText())).values).toEqual(['One, two.'])
    expect(responseText(r)).toBe('One, two.')
  })

  it('from a Response whose output_text is "" (OpenRouter): its message text parts', () => {
    const r = resp({ output_text: '', output: [{ id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Real text' }] }] })
    expect(responseText(r)).toBe('Real text')
    expect(run(of(r).pipe(outputText())).values).toEqual(['Real text'])
  })

  it('from a stream without deltas whose final Response has output_text "": its message text parts', () => {
    const final = lifecycle('response.completed', 1, { output_text: '', output: [{ id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'From parts' }] }] })
    expect(run(from([ev(lifecycle('response.created', 0)), ev(final)]).pipe(outputText())).values).toEqual(['From parts'])
  })

  it('responseText gives "" for a Response without any text', () => {
    expect(responseText(resp({ output_text: null, output: [] }))).toBe('')
    expect(responseText(resp({ output_text: undefined, output: undefined }))).toBe('')
  })

  it('emits an empty string for an empty source', () => {
    expect(run(EMPTY.pipe(outputText()))).toEqual({ values: [''], error: undefined, completed: true })
  })

  it('emits nothing when the source fails', () => {
    const err = new Error('x')
    expect(run(concat(of(ev(delta(1, 'a'))), throwError(() => err)).pipe(outputText()))).toEqual({ values: [], error: err, completed: false })
  })
})

describe('finalResponse', () => {
  it('from a stream: the response of response.completed', () => {
    const { values, completed } = run(from(stream).pipe(finalResponse()))
    expect(values).toHaveLength(1)
    expect(values[0]).toMatchObject({ status: 'completed', output_text: 'Hello 🌍' })
    expect(completed).toBe(true)
  })

  it('from a stream: the response of response.incomplete', () => {
    const { values } = run(from([ev(delta(1, 'a')), ev(lifecycle('response.incomplete', 2, { incomplete_details: { reason: 'max_output_tokens' } }))]).pipe(finalResponse()))
    expect(values).toEqual([expect.objectContaining({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })])
  })

  it('from Response snapshots: the first one with a final status, then completes without waiting for more', () => {
    const src = new Subject<Response>()
    const out: Response[] = []
    let completed = false
    src.pipe(finalResponse()).subscribe({ next: (r) => out.push(r), complete: () => (completed = true) })
    src.next(resp({ status: 'queued' }))
    src.next(resp({ status: 'in_progress' }))
    expect(out).toEqual([])
    src.next(resp({ status: 'cancelled', id: 'resp_c' }))
    expect(out.map((r) => [r.id, r.status])).toEqual([['resp_c', 'cancelled']])
    expect(completed).toBe(true)
    expect(src.observed).toBe(false)
  })

  it('completes empty when nothing final arrives, and passes errors through', () => {
    expect(run(from(stream.slice(0, 3)).pipe(finalResponse()))).toEqual({ values: [], error: undefined, completed: true })
    const err = new Error('x')
    expect(run(throwError(() => err).pipe(finalResponse())).error).toBe(err)
  })

  it('ignores a response.created or in_progress event', () => {
    expect(run(from([ev(lifecycle('response.created', 0)), ev(lifecycle('response.in_progress', 1))]).pipe(finalResponse(), toArray())).values).toEqual([[]])
  })
})

describe('taskUrls', () => {
  const info = { id: 't', created_at: 'x', updated_at: 'x' }
  const events = [
    { type: 'created', taskId: 't', taskInfo: info, idempotencyKey: 'k' },
    { type: 'pending', taskId: 't', taskInfo: { ...info, status: 'pending' } },
    { type: 'completed', taskId: 't', taskInfo: { ...info, status: 'completed' }, urls: ['https://cdn.test/v.mp4'], reply: {} },
  ] as unknown as TaskEvent[]

  it('emits the URLs of the completed event only, then completes with the source', () => {
    expect(run(from(events).pipe(taskUrls()))).toEqual({ values: [['https://cdn.test/v.mp4']], error: undefined, completed: true })
  })

  it('emits nothing for a task that has not completed, and passes errors through', () => {
    const err = new Error('failed')
    expect(run(concat(from(events.slice(0, 2)), throwError(() => err)).pipe(taskUrls()))).toEqual({ values: [], error: err, completed: false })
  })
})
