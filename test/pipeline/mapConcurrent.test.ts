import { pipeline } from 'node:stream/promises'
import { promiseHooks } from 'node:v8'
import { EmptyError, filter, map, timer } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createClient } from '../../src/client.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { outputText } from '../../src/operators/outputText.js'
import { mapConcurrent, type MapConcurrentOptions } from '../../src/pipeline/mapConcurrent.js'
import { responses$ } from '../../src/responses$.js'
import { startSimulator } from '../../src/sim/index.js'
import { waitFor, within } from '../helpers/server.js'
import { heldGateway } from './heldGateway.js'
import { slowWriter } from './slowWriter.js'

async function simClient() {
  const sim = await startSimulator()
  onTestFinished(() => sim.close())
  let sent = 0
  const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, hooks: { onRequest: () => sent++ } })
  return { sim, client, sent: () => sent }
}

/** `n` prompts from a generator that counts how many were read. */
function prompts(n: number) {
  const seen = { read: 0 }
  async function* source() {
    for (let i = 0; i < n; i++) {
      seen.read++
      yield `Prompt ${i}`
    }
  }
  return { source, seen }
}

async function* jsonLines(results: AsyncIterable<unknown>) {
  for await (const r of results) yield JSON.stringify(r)
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = []
  for await (const value of iterable) values.push(value)
  return values
}

describe('mapConcurrent in a stream.pipeline with a slow writer', () => {
  const N = 30
  const CONCURRENCY = 4
  const BUFFER = 2 // the writer's highWaterMark, in lines

  it.each([true, false])('ordered %s: paid calls started stay ≤ lines written + concurrency + the writer buffer', async (ordered) => {
    const { sim, client, sent } = await simClient()
    const { source, seen } = prompts(N)
    const ask = (prompt: string, index: number) => responses$(client, { model: 'gpt-4.1-mini', input: prompt }).pipe(outputText(), map((text) => ({ index, text })))
    const writer = slowWriter(BUFFER)
    const done = pipeline(source, mapConcurrent(ask, { concurrency: CONCURRENCY, ordered }), jsonLines, writer.writable)
    let ahead = 0 // most calls started beyond the lines written
    while (writer.lines.length < N) {
      // Stalled on the writer: its buffer is full (or the batch is read to its end), every call started has reached the gateway.
      await waitFor(() => writer.waiting && (writer.writable.writableNeedDrain || sent() === N) && sim.responses.length === sent(), 5_000, 'the pipeline to stall')
      expect(sent()).toBeLessThanOrEqual(writer.lines.length + CONCURRENCY + BUFFER)
      expect(seen.read).toBe(sent()) // the source is read one prompt per call started
      ahead = Math.max(ahead, sent() - writer.lines.length)
      writer.release()
    }
    await done
    expect(ahead).toBe(CONCURRENCY + BUFFER) // the bound is reached: the calls do run `concurrency` at a time
    expect(sim.responses).toHaveLength(N)
    const indexes = writer.lines.map((line) => (JSON.parse(line) as { index: number }).index)
    const inOrder = Array.from({ length: N }, (_, i) => i)
    if (ordered) expect(indexes).toEqual(inOrder)
    else expect([...indexes].sort((a, b) => a - b)).toEqual(inOrder)
  }, 30_000)
})

describe('mapConcurrent results', () => {
  it('ordered (default): a result waits for the inputs before it; ordered false: results come as calls finish', async () => {
    for (const ordered of [true, false]) {
      const gw = await heldGateway()
      const ask = (input: string) => responses$(gw.client, { model: 'gpt-4.1-mini', input }).pipe(outputText())
      const results: string[] = []
      const reading = (async () => {
        for await (const text of mapConcurrent(ask, { concurrency: 3, ordered })(['a', 'b', 'c'])) results.push(text)
      })()
      await gw.answer('c')
      await gw.answer('b')
      await waitFor(() => gw.outcomes.length === 2, 3_000, 'c and b to finish')
      if (!ordered) await waitFor(() => results.length === 2, 3_000, 'c and b to come out')
      expect(results).toEqual(ordered ? [] : ['c', 'b'])
      await gw.answer('a')
      await reading
      expect(results).toEqual(ordered ? ['a', 'b', 'c'] : ['c', 'b', 'a'])
    }
  })

  it('answers several next() calls made at once, a place at a time', async () => {
    const { client } = await simClient()
    const ask = (input: string) => responses$(client, { model: 'gpt-4.1-mini', input }).pipe(outputText())
    const results = mapConcurrent(ask, { concurrency: 1 })(['Say hi', 'Say hi'])
    const both = Promise.all([results.next(), results.next(), results.next()])
    const [first, second, end] = await within(both, 3_000, 'three next() calls made at once to be answered')
    expect([first.value, second.value, end.done]).toEqual(['Hi there! How can I help you today?', 'Hi there! How can I help you today?', true])
  })

  it('takes each call’s last value; a call that completes empty ends the iteration with EmptyError', async () => {
    const { client } = await simClient()
    const ask = (input: string) => responses$(client, { model: 'gpt-4.1-mini', input }).pipe(outputText())
    expect(await collect(mapConcurrent(ask)(['Say hi']))).toEqual(['Hi there! How can I help you today?'])
    const none = (input: string) => ask(input).pipe(filter((text) => text.length > 1_000))
    await expect(collect(mapConcurrent(none)(['Say hi']))).rejects.toBeInstanceOf(EmptyError)
  })
})

describe('mapConcurrent at the end of its source', () => {
  it('waits for the calls still in flight without spinning: the work done does not depend on how long they take', async () => {
    // Each step of the iteration makes a few promises; a loop that retried filling places the ended source
    // cannot fill would make them by the thousand, until the stack ran out.
    const promisesMade = async (delayMs: number) => {
      let made = 0
      const stopCounting = promiseHooks.onInit(() => made++)
      try {
        expect(await collect(mapConcurrent((s: string) => timer(delayMs).pipe(map(() => s.toUpperCase())), { concurrency: 2 })(['a', 'b', 'c']))).toEqual(['A', 'B', 'C'])
      } finally {
        stopCounting()
      }
      return made
    }
    const quick = await promisesMade(0)
    expect(quick).toBeLessThan(200)
    expect(await promisesMade(20)).toBeLessThan(200)
  })
})

describe('mapConcurrent options', () => {
  const cases: [string, unknown, unknown, string][] = [
    ['concurrency 0', () => [], { concurrency: 0 }, 'concurrency'],
    ['concurrency 2.5', () => [], { concurrency: 2.5 }, 'concurrency'],
    ['concurrency as a string', () => [], { concurrency: '8' }, 'concurrency'],
    ['ordered as a string', () => [], { ordered: 'yes' }, 'ordered'],
    ['a project that is not a function', 'responses$', {}, 'project'],
    ['options that are a number', () => [], 8, 'options'],
  ]
  it.each(cases)('%s: InvalidRequestError when mapConcurrent is called, before the source is read', (_name, project, options, path) => {
    const { source, seen } = prompts(3)
    let error: unknown
    try {
      mapConcurrent(project as () => never[], options as MapConcurrentOptions)(source())
    } catch (err) {
      error = err
    }
    expect(isInvalidRequestError(error) && error.issues.map((i) => i.path)).toEqual([path])
    expect(seen.read).toBe(0)
  })
})
