import { EventEmitter } from 'node:events'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { Call } from '../../src/sim/call.js'
import { writeFill } from '../../src/sim/write.js'

/** A call whose response reports a full buffer on every write until 'drain'. */
function fakeCall() {
  const abort = new AbortController()
  const res = Object.assign(new EventEmitter(), { writes: 0, write: () => ((res.writes += 1), false) })
  return { call: { res, signal: abort.signal } as unknown as Call, res, abort }
}

describe('simulator writes: backpressure', () => {
  it('waits for drain after a full buffer, and stops for good once aborted', async () => {
    const { call, res, abort } = fakeCall()
    const writing = writeFill(call, 'x', Infinity)
    for (let i = 0; i < 5; i++) await nextTurn()
    expect(res.writes).toBe(1) // no second write without a drain
    res.emit('drain')
    for (let i = 0; i < 5; i++) await nextTurn()
    expect(res.writes).toBe(2)
    abort.abort()
    await expect(writing).rejects.toThrow(/abort/i)
    res.emit('drain')
    await nextTurn()
    expect(res.writes).toBe(2)
  })

  it('writes exactly the bytes asked for, in 64 KiB chunks', async () => {
    const chunks: number[] = []
    const res = Object.assign(new EventEmitter(), { write: (chunk: Buffer) => (chunks.push(chunk.length), true) })
    await writeFill({ res, signal: new AbortController().signal } as unknown as Call, ' ', 150_000)
    expect(chunks).toEqual([65_536, 65_536, 18_928])
  })
})
