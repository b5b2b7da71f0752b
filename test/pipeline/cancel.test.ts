import { pipeline } from 'node:stream/promises'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { isHttpError } from '../../src/errors/HttpError.js'
import { outputText } from '../../src/operators/outputText.js'
import { mapConcurrent } from '../../src/pipeline/mapConcurrent.js'
import { responses$ } from '../../src/responses$.js'
import { within } from '../helpers/server.js'
import { heldGateway, type HeldGateway } from './heldGateway.js'

const INPUTS = ['a', 'b', 'c', 'd', 'e', 'f']

/** The inputs from a generator that records whether it was closed (its `finally` ran). */
function inputs() {
  const source = { closed: false }
  async function* read() {
    try {
      yield* INPUTS
    } finally {
      source.closed = true
    }
  }
  return { read, source }
}

const askOf = (gw: HeldGateway) => (input: string) => responses$(gw.client, { model: 'gpt-4.1-mini', input }).pipe(outputText())

/** Resolves once the gateway has seen the client close the request for each of `unanswered`. */
async function closedByClient(gw: HeldGateway, unanswered: string[]): Promise<void> {
  for (const input of unanswered) await within((await gw.request(input)).closedEarly, 3_000, `the request for ${input} being closed`)
}

describe('mapConcurrent leaves nothing running', () => {
  it('the first error ends the iteration with it and aborts every request in flight', async () => {
    const gw = await heldGateway()
    const { read, source } = inputs()
    const results: string[] = []
    const reading = (async () => {
      for await (const text of mapConcurrent(askOf(gw), { concurrency: 3 })(read())) results.push(text)
    })()
    await Promise.all(['a', 'c'].map((input) => gw.request(input)))
    await gw.answer('b', 400)
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isHttpError(error) && error.status).toBe(400)
    await closedByClient(gw, ['a', 'c'])
    expect(gw.inputs()).toEqual(['a', 'b', 'c']) // no call started after the error
    expect(gw.outcomes.filter((o) => o === 'aborted')).toHaveLength(2)
    expect(source.closed).toBe(true)
    expect(results).toEqual([])
  })

  it('leaving a for await loop early aborts the requests in flight and closes the source', async () => {
    const gw = await heldGateway()
    const { read, source } = inputs()
    const reading = (async () => {
      for await (const text of mapConcurrent(askOf(gw), { concurrency: 3 })(read())) return text
    })()
    await Promise.all(['b', 'c'].map((input) => gw.request(input)))
    await gw.answer('a')
    expect(await reading).toBe('a')
    await closedByClient(gw, ['b', 'c'])
    expect(gw.inputs()).toEqual(['a', 'b', 'c'])
    expect(source.closed).toBe(true)
  })

  it('a pipeline destroyed while calls are in flight aborts them and closes the source', async () => {
    const gw = await heldGateway()
    const { read, source } = inputs()
    const written: string[] = []
    const writable = new Writable({
      objectMode: true,
      write(text: string, _encoding, callback) {
        written.push(text)
        callback()
      },
    })
    const done = pipeline(read, mapConcurrent(askOf(gw), { concurrency: 3 }), writable)
    await Promise.all(['b', 'c'].map((input) => gw.request(input)))
    await gw.answer('a')
    await gw.request('d') // 'a' taken: its place went to 'd'
    expect(written).toEqual(['a'])
    writable.destroy(new Error('disk full')) // the pipeline now waits on calls that never answer
    await expect(done).rejects.toThrow('disk full')
    await closedByClient(gw, ['b', 'c', 'd'])
    expect(gw.inputs()).toEqual(['a', 'b', 'c', 'd'])
    expect(source.closed).toBe(true)
  })
})
