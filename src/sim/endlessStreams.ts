import type { Call } from './call.js'
import type { SimClock } from './clock.js'
import type { SimFaults } from './faultTypes.js'
import { writeChunk } from './write.js'

/**
 * The endless stream faults. Each runs until the client goes away or the
 * simulator closes (both abort `call.signal`, which rejects the pending
 * wait or write), so no timer or write outlives the connection.
 */

/** Starts the endless stream fault in force, if any (`pingForever`, `endlessLine`, `endlessData`, in that order of precedence). */
export function endlessStream(call: Call, clock: SimClock, faults: SimFaults, newline: string): Promise<void> | undefined {
  const start = (name: string, run: () => Promise<void>) => {
    call.note(name)
    return run()
  }
  if (faults.pingForever) return start('pingForever', () => pingForever(call, clock, faults.pingForever!.everyMs, newline))
  if (faults.endlessLine) return start('endlessLine', () => endlessLine(call))
  if (faults.endlessData) return start('endlessData', () => endlessData(call, newline))
  return undefined
}

/** `: ping` comment lines, one every `everyMs` real ms, and never an event. */
async function pingForever(call: Call, clock: SimClock, everyMs: number, newline: string): Promise<void> {
  for (;;) {
    await writeChunk(call, `: ping${newline}${newline}`)
    await clock.sleep(everyMs, call.signal)
  }
}

/** One `data: xxxx…` line that never ends, written as fast as the client reads. */
async function endlessLine(call: Call): Promise<void> {
  await writeChunk(call, 'data: ')
  const chunk = Buffer.alloc(64 * 1024, 'x')
  for (;;) await writeChunk(call, chunk)
}

/** `data: {…}` lines forever with no blank line, so no event is ever complete; as fast as the client reads. */
async function endlessData(call: Call, newline: string): Promise<void> {
  const line = `data: {"type":"response.output_text.delta","delta":"x"}${newline}`
  const chunk = line.repeat(Math.ceil((64 * 1024) / line.length))
  await writeChunk(call, `event: response.output_text.delta${newline}`)
  for (;;) await writeChunk(call, chunk)
}
