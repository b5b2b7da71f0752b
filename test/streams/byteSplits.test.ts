import { describe, expect, it } from 'vitest'
import { finalResponse } from '../../src/operators/finalResponse.js'
import { outputText } from '../../src/operators/outputText.js'
import { responses$ } from '../../src/responses$.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import { fakeClient } from '../helpers/client.js'
import { collect } from '../helpers/collect.js'
import { sse } from '../helpers/fakeTransport.js'
import { RECORDED_EVENTS, RECORDED_TEXT, recordedStream } from '../helpers/fixtures.js'

// The whole path from bytes to events (body → text decoding → SSE → JSON →
// validation), fed by a transport whose body arrives in the chunks given.

const BYTES = new TextEncoder().encode(recordedStream())

const clientOver = (chunks: Uint8Array[]) => fakeClient(() => sse(chunks), { retry: false }).client

async function run(chunks: Uint8Array[]): Promise<{ events: [string, number | undefined][]; text: string; error: unknown }> {
  const out = await collect(responses$(clientOver(chunks), { model: 'm', stream: true }))
  const events = out.values as ResponseStreamEvent[]
  const text = events
    .filter((e) => e.type === 'response.output_text.delta')
    .map((e) => (e as { delta: string }).delta)
    .join('')
  return { events: events.map((e) => [String(e.type), e.sequence_number]), text, error: out.error }
}

const EXPECTED = { events: RECORDED_EVENTS, text: RECORDED_TEXT, error: undefined }

/** Byte positions inside a multibyte character or between \r and \n. */
function awkwardPositions(): number[] {
  const positions: number[] = []
  for (let i = 1; i < BYTES.length; i++) {
    const b = BYTES[i]!
    if ((b & 0b1100_0000) === 0b1000_0000) positions.push(i)
    if (BYTES[i - 1] === 13 && b === 10) positions.push(i)
  }
  return positions
}

describe('a recorded stream, split at the byte level', () => {
  it('has splits inside é, —, ï, 🚀, ✓ and between \\r and \\n to test', () => {
    const text = new TextDecoder().decode(BYTES)
    for (const c of ['é', '—', 'ï', '🚀', '✓', '\r\n']) expect(text).toContain(c)
    expect(awkwardPositions().length).toBeGreaterThan(40)
  })

  it('gives the same events and text when split in two at every byte', async () => {
    for (let i = 0; i <= BYTES.length; i++) {
      const got = await run([BYTES.subarray(0, i), BYTES.subarray(i)])
      if (JSON.stringify(got) !== JSON.stringify(EXPECTED)) expect({ split: i, ...got }).toEqual({ split: i, ...EXPECTED })
    }
  })

  it('gives the same events and text with one byte per chunk', async () => {
    expect(await run([...BYTES].map((b) => Uint8Array.of(b)))).toEqual(EXPECTED)
  })

  it('gives the same events and text when split in three inside multibyte characters and line ends', async () => {
    const positions = awkwardPositions()
    for (const i of positions) {
      for (const j of positions.filter((p) => p > i).slice(0, 3)) {
        expect(await run([BYTES.subarray(0, i), BYTES.subarray(i, j), BYTES.subarray(j)])).toEqual(EXPECTED)
      }
    }
  })

  it('assembles exactly the streamed text with outputText and ends on the final Response', async () => {
    const mid = awkwardPositions()[3]!
    const text = await collect(responses$(clientOver([BYTES.subarray(0, mid), BYTES.subarray(mid)]), { model: 'm', stream: true }).pipe(outputText()))
    expect(text.values).toEqual([RECORDED_TEXT])
    const final = await collect(responses$(clientOver([BYTES]), { model: 'm', stream: true }).pipe(finalResponse()))
    expect(final.values).toEqual([expect.objectContaining({ status: 'completed', output_text: RECORDED_TEXT })])
  })
})
