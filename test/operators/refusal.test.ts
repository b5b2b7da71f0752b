import { of, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { refusal } from '../../src/operators/refusal.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { lifecycle } from '../helpers/fixtures.js'

const ev = (e: Record<string, unknown>) => e as unknown as ResponseStreamEvent
const refused = [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: "I can't help with that." }] }]

describe('refusal: a refusal sent only in the final response', () => {
  it('takes it from the last response seen, whatever events without a response come after it', async () => {
    const events = [
      ev(lifecycle('response.created', 0)),
      ev(lifecycle('response.completed', 1, { output: refused })),
      ev({ type: 'response.output_text.done', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, text: '' }),
    ]
    let pieces: string[] = []
    of(...events)
      .pipe(refusal(), toArray())
      .subscribe((all) => (pieces = all))
    expect(pieces).toEqual(["I can't help with that."])
  })
})
