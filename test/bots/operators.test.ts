import { concat, from, of, throwError, type Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { isResponseRefusedError } from '../../src/errors/ResponseRefusedError.js'
import { isValidationError } from '../../src/errors/ValidationError.js'
import { outputText } from '../../src/operators/outputText.js'
import { refusal } from '../../src/operators/refusal.js'
import { toolCalls } from '../../src/operators/toolCalls.js'
import type { Response } from '../../src/validation/response.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { all, failure } from './replay.js'

const events = (...list: Record<string, unknown>[]) => from(list as unknown as ResponseStreamEvent[])
const at = { item_id: 'msg_1', output_index: 0, content_index: 0 }
const final = (output: unknown[], over: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: { id: 'resp_9', object: 'response', created_at: 1, model: 'm', status: 'completed', output, ...over },
})
const refused = { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }

describe('refusal()', () => {
  it('gives a refusal sent whole (done without deltas) once, and nothing for an answer', async () => {
    expect(await all(events({ type: 'response.refusal.done', ...at, refusal: 'No.' }, final([refused])).pipe(refusal()))).toEqual(['No.'])
    expect(await all(events({ type: 'response.output_text.delta', ...at, delta: 'Yes' }, final([])).pipe(refusal()))).toEqual([])
  })

  it('from Response values: the refusal of the last one', async () => {
    expect(await all(of(final([refused]).response as unknown as Response).pipe(refusal()))).toEqual(['No.'])
  })

  it('gives a refusal sent whole even when no final response follows', async () => {
    expect(await all(events({ type: 'response.refusal.done', ...at, refusal: 'No.' }).pipe(refusal()))).toEqual(['No.'])
  })

  it('from events: the refusal held only by the final response', async () => {
    expect(await all(events({ type: 'response.created', response: { ...final([]).response, status: 'in_progress' } }, final([refused])).pipe(refusal()))).toEqual(['No.'])
  })

  it('takes only the refusal parts of a message, and nothing from a response without output', async () => {
    const mixed = { ...refused, content: [{ type: 'output_text', text: 'Well' }, { type: 'refusal', refusal: 'No.' }] }
    expect(await all(of(final([mixed]).response as unknown as Response).pipe(refusal()))).toEqual(['No.'])
    const { output: _, ...bare } = final([]).response
    expect(await all(of(bare as unknown as Response).pipe(refusal()))).toEqual([])
  })

  it('passes an error of its source through', async () => {
    const err = new Error('cut')
    expect(await failure(concat(events({ type: 'response.refusal.delta', ...at, delta: 'No' }), throwError(() => err)).pipe(refusal()))).toBe(err)
  })
})

describe('outputText() and refusals', () => {
  it('ends in ResponseRefusedError with the refusal and response id when there is no text', async () => {
    const err = await failure(events({ type: 'response.refusal.delta', ...at, delta: 'No' }, { type: 'response.refusal.delta', ...at, delta: '.' }, final([refused])).pipe(outputText()))
    expect(isResponseRefusedError(err) && [err.refusal, err.responseId]).toEqual(['No.', 'resp_9'])
  })

  it('reads a refusal from its deltas or its done event when the final response does not hold it', async () => {
    for (const parts of [
      [{ type: 'response.refusal.delta', ...at, delta: 'No' }, { type: 'response.refusal.delta', ...at, delta: '.' }],
      [{ type: 'response.refusal.done', ...at, refusal: 'No.' }],
      [{ type: 'response.refusal.delta', ...at, delta: 'No.' }, { type: 'response.refusal.done', ...at, refusal: 'No.' }],
    ]) {
      const err = await failure(events(...parts, final([])).pipe(outputText()))
      expect(isResponseRefusedError(err) && [err.refusal, err.responseId]).toEqual(['No.', 'resp_9'])
    }
  })

  it('names the latest response seen in a refusal, or none when no response was seen', async () => {
    const created = { type: 'response.created', response: { ...final([]).response, status: 'in_progress' } }
    const early = await failure(events(created, { type: 'response.refusal.delta', ...at, delta: 'No.' }, { type: 'response.output_item.done', output_index: 0, item: refused }).pipe(outputText()))
    expect(isResponseRefusedError(early) && [early.refusal, early.responseId]).toEqual(['No.', 'resp_9'])
    const bare = await failure(events({ type: 'response.refusal.delta', ...at, delta: 'No.' }).pipe(outputText()))
    expect(isResponseRefusedError(bare) && [bare.refusal, bare.responseId]).toEqual(['No.', undefined])
  })

  it('lets text beside a refusal win, and still gives "" for an empty answer that refused nothing', async () => {
    expect(await all(events({ type: 'response.refusal.delta', ...at, delta: 'No' }, { type: 'response.output_text.delta', ...at, delta: 'Well…' }).pipe(outputText()))).toEqual(['Well…'])
    expect(await all(events(final([])).pipe(outputText()))).toEqual([''])
  })
})

describe('toolCalls()', () => {
  const call = (id: string, args: string) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'f', arguments: args })
  const done = (item: unknown) => ({ type: 'response.output_item.done', output_index: 0, item })

  it('emits each call once, from its item event, and again none from the final Response', async () => {
    const calls = await all(events(done(call('a', '{"x":1}')), done(call('b', '  ')), final([call('a', '{"x":1}'), call('b', '')])).pipe(toolCalls()))
    expect(calls).toEqual([
      { name: 'f', callId: 'call_a', arguments: { x: 1 }, itemId: 'fc_a' },
      { name: 'f', callId: 'call_b', arguments: {}, itemId: 'fc_b' },
    ])
  })

  it('ends in ValidationError for a call it cannot answer (no call_id) or read (not JSON)', async () => {
    const noId = (await failure(events(done({ type: 'function_call', name: 'f', arguments: '{}' })).pipe(toolCalls()))) as { issues: { path: string }[] }
    expect(isValidationError(noId) && noId.issues.map((i) => i.path)).toEqual(['call_id'])
    const prose: Observable<unknown> = events(done(call('c', 'the city is Paris'))).pipe(toolCalls())
    expect(isValidationError(await failure(prose))).toBe(true)
  })

  it('says which call is wrong and why', async () => {
    const noId = await failure(events(done({ type: 'function_call', name: 'weather', arguments: '{}' })).pipe(toolCalls()))
    expect(noId).toMatchObject({ message: 'Unexpected function call "weather" from the gateway: call_id: is missing, so the call cannot be answered.' })
    const prose = await failure(events(done({ ...call('c', 'the city is Paris'), name: 'weather' })).pipe(toolCalls()))
    expect((prose as Error).message).toMatch(/^Unexpected function call "weather" arguments from the gateway: arguments: is not JSON \(.+\)\.$/)
    expect(prose).toMatchObject({ payload: 'the city is Paris' })
  })

  it('emits calls held only by the final response, completed or incomplete; a final response without output has none', async () => {
    for (const type of ['response.completed', 'response.incomplete']) {
      const calls = await all(events({ ...final([call('a', '{"x":1}')]), type }).pipe(toolCalls()))
      expect(calls).toEqual([{ name: 'f', callId: 'call_a', arguments: { x: 1 }, itemId: 'fc_a' }])
    }
    const { output: _, ...bare } = final([]).response
    expect(await all(events({ type: 'response.completed', response: bare }).pipe(toolCalls()))).toEqual([])
    expect(await all(of(bare as unknown as Response).pipe(toolCalls()))).toEqual([])
  })

  it('passes an error of its source through', async () => {
    const err = new Error('cut')
    expect(await failure(concat(events(done(call('a', '{}'))), throwError(() => err)).pipe(toolCalls()))).toBe(err)
  })
})
