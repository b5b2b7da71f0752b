import { expect } from 'vitest'
import type { Frame } from './helpers.js'

/**
 * Checks a complete Responses stream against the OpenAI format, as a
 * client relies on it, and returns the final response:
 * - every frame is JSON whose `type` equals its SSE `event` name;
 * - `sequence_number`s run 0, 1, 2, … without gaps;
 * - it opens with `response.created` and ends with one terminal event;
 * - each `response.output_item.done` item equals the final `output[output_index]`;
 * - text, refusal, argument and reasoning-summary deltas join to the
 *   `.done` texts and to the final items.
 */
export function wellFormed(all: readonly Frame[]): any {
  const events = all.filter((frame) => frame.data !== '[DONE]')
  events.forEach((frame, index) => {
    expect(frame.json, `frame ${index} is JSON`).toBeDefined()
    expect(frame.json.type).toBe(frame.event)
    expect(frame.json.sequence_number).toBe(index)
  })
  const types = events.map((f) => f.json.type as string)
  expect(types[0]).toBe('response.created')
  const terminal = types.filter((t) => ['response.completed', 'response.incomplete', 'response.failed'].includes(t))
  expect(terminal).toEqual([types.at(-1)])
  const final = events.at(-1)!.json.response
  const output: any[] = final.output
  const joined = new Map<string, string>()
  const add = (key: string, delta: string) => joined.set(key, (joined.get(key) ?? '') + delta)
  for (const { json: e } of events) {
    if (e.type === 'response.output_item.done') expect(e.item).toEqual(output[e.output_index])
    if (e.type === 'response.output_text.delta') add(`text:${e.item_id}`, e.delta)
    if (e.type === 'response.refusal.delta') add(`refusal:${e.item_id}`, e.delta)
    if (e.type === 'response.function_call_arguments.delta') add(`args:${e.item_id}`, e.delta)
    if (e.type === 'response.reasoning_summary_text.delta') add(`summary:${e.item_id}:${e.summary_index}`, e.delta)
    if (e.type === 'response.output_text.done') expect(e.text).toBe(joined.get(`text:${e.item_id}`) ?? '')
    if (e.type === 'response.refusal.done') expect(e.refusal).toBe(joined.get(`refusal:${e.item_id}`) ?? '')
    if (e.type === 'response.function_call_arguments.done') expect(e.arguments).toBe(joined.get(`args:${e.item_id}`) ?? '')
    if (e.type === 'response.reasoning_summary_text.done') expect(e.text).toBe(joined.get(`summary:${e.item_id}:${e.summary_index}`) ?? '')
  }
  for (const item of output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') expect(part.text).toBe(joined.get(`text:${item.id}`))
        if (part.type === 'refusal') expect(part.refusal).toBe(joined.get(`refusal:${item.id}`))
      }
    }
    if (item.type === 'function_call') expect(item.arguments).toBe(joined.get(`args:${item.id}`))
    if (item.type === 'reasoning') item.summary.forEach((part: any, i: number) => expect(part.text).toBe(joined.get(`summary:${item.id}:${i}`)))
  }
  if (final.status === 'completed' || final.status === 'incomplete') {
    const texts = output.filter((i) => i.type === 'message').flatMap((i) => i.content.filter((p: any) => p.type === 'output_text').map((p: any) => p.text))
    expect(final.output_text).toBe(texts.join(''))
  }
  return final
}
