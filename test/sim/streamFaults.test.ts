import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../src/sim/index.js'
import { call, frames, RESPONSES, simulator } from './helpers.js'
import { raw, readThenLeave } from './rawHttp.js'
import { wellFormed } from './wellFormed.js'

const body = { model: 'm', input: 'Tell me about tides', stream: true }

/** Reads a stream until `enough` bytes have come, then leaves. */
const readStream = (sim: Awaited<ReturnType<typeof simulator>>, enough: number) => readThenLeave(sim, RESPONSES, body, enough)

/** After the client left: the server has let go of the connection, and counts it as the client's doing. */
async function clientLeft(sim: Awaited<ReturnType<typeof simulator>>) {
  await expect.poll(() => sim.openConnections).toBe(0)
  await expect.poll(() => sim.requests.at(-1)?.aborted).toBe(true)
  expect(sim.connectionsClosedByClient).toBe(1)
}

describe('simulator: stream faults (every stream while set)', () => {
  it('closeMidEventAt: frame N is cut halfway, then the response ends cleanly (no reset)', async () => {
    const sim = await simulator({ faults: { closeMidEventAt: 3 } })
    const outcome = await raw(sim, RESPONSES, { body })
    expect([outcome.status, outcome.reset]).toEqual([200, false])
    const text = outcome.body.toString()
    const parsed = frames(text)
    expect(parsed.slice(0, 2).map((f) => f.json.sequence_number)).toEqual([0, 1])
    expect(parsed[2]!.event).toBe('response.output_item.added')
    expect(parsed[2]!.json).toBeUndefined()
    expect(text.endsWith('\n\n')).toBe(false)
    expect(sim.connectionsClosedByClient).toBe(0)
    expect(sim.faultCounts).toEqual({ closeMidEventAt: 1 })
  })

  it('pingForever: only ": ping" comments, every everyMs, until the client leaves', async () => {
    const sim = await simulator({ faults: { pingForever: { everyMs: 5 } } })
    const seen = (await readStream(sim, 60)).bytes.toString()
    expect(seen.length).toBeGreaterThanOrEqual(60)
    expect(seen.replaceAll(': ping\n\n', '')).toBe('')
    await clientLeft(sim)
  })

  it.each([
    ['pingForever', { pingForever: { everyMs: 5 } }, true],
    ['endlessLine', { endlessLine: true }, true],
    ['endlessData', { endlessData: true }, true],
    ['drip', { drip: { everyMs: 5 } }, true],
    ['hugeReply of Infinity', { hugeReply: { bytes: Infinity } }, false],
    ['hugeErrorBody of Infinity', { hugeErrorBody: { every: 1, bytes: Infinity } }, false],
  ] as const)('%s stops when the simulator closes', async (_, faults, streamed) => {
    const sim = await startSimulator({ faults })
    const res = await call(sim, RESPONSES, { body: { ...body, stream: streamed } })
    const reader = res.body!.getReader()
    await reader.read()
    await sim.close()
    // What the client had buffered still comes out; then the cut connection is an error, not a clean end.
    const ending = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended'
    })()
    await expect(ending).rejects.toThrow()
    expect(sim.openConnections).toBe(0)
  })

  it('drip: the first frame comes one byte at a time, then the stream goes on normally', async () => {
    const sim = await simulator({ faults: { drip: { everyMs: 1 } } })
    const res = await call(sim, RESPONSES, { body: { ...body, input: 'hi' } })
    const reader = res.body!.getReader()
    const sizes: number[] = []
    let text = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      sizes.push(value.length)
      text += Buffer.from(value).toString('latin1')
    }
    // Reads before the first frame is complete: one per byte, unless a busy machine lets a few bytes gather.
    const first = text.indexOf('\n\n') + 2
    let readsForFirst = 0
    for (let seen = 0; seen < first; readsForFirst++) seen += sizes[readsForFirst]!
    expect(readsForFirst).toBeGreaterThan(first / 20)
    wellFormed(frames(Buffer.from(text, 'latin1').toString()))
  })

  it('endlessLine: one data line that never ends, written as fast as the client reads, until it leaves', async () => {
    const sim = await simulator({ faults: { endlessLine: true } })
    const seen = (await readStream(sim, 1024 * 1024)).bytes
    expect(seen.subarray(0, 6).toString()).toBe('data: ')
    expect(seen.includes('\n')).toBe(false)
    await clientLeft(sim)
  })

  it('endlessData: data lines forever with no blank line, until the client leaves', async () => {
    const sim = await simulator({ faults: { endlessData: true } })
    const seen = (await readStream(sim, 512 * 1024)).bytes.toString()
    expect(seen.startsWith('event: response.output_text.delta\ndata: {')).toBe(true)
    expect(seen).not.toContain('\n\n')
    expect(seen.split('\n').slice(1, -1).every((line) => line === 'data: {"type":"response.output_text.delta","delta":"x"}')).toBe(true)
    await clientLeft(sim)
  })

  it('applies to replayed streams too', async () => {
    const sim = await simulator({ timeScale: { pendingMs: 1, processingMs: 1 } })
    const created = await (await call(sim, RESPONSES, { body: { model: 'm', input: 'hi', background: true } })).json()
    sim.setFaults({ closeMidEventAt: 1 })
    const replay = await raw(sim, `${RESPONSES}/${created.id}?stream=true`)
    expect(replay.reset).toBe(false)
    expect(frames(replay.body.toString())[0]!.json).toBeUndefined()
  })
})
