import type { Call } from './call.js'
import { endlessStream } from './endlessStreams.js'
import type { SimEnv } from './env.js'
import type { SimFaults } from './faultTypes.js'
import type { SseEvent } from './responseEvents.js'
import { writeChunk, writeThenDestroy } from './write.js'

/** Stream faults for one stream only (chaos picks these), on top of those in force. */
export type StreamFaults = Pick<SimFaults, 'resetStreamAfter' | 'closeMidEventAt'>

/** What a stream's writer hears of each event. */
export interface SseHooks {
  /** Called just before an event is written; returning false ends the stream there, cleanly. */
  readonly before?: (event: SseEvent) => boolean
  /** Called once an event has been written. */
  readonly after?: (event: SseEvent) => void
}

/**
 * Streams events as server-sent events, `event: <type>\ndata: <json>\n\n`,
 * `settings.streamDelayMs` of real time apart so the stream is observably
 * incremental. Applies the quirks (`: ping`, `\r\n`, `[DONE]`) and the
 * stream faults in force when it starts (see `SimFaults`); `extra` adds
 * faults for this stream only, and `hooks` hear each event before and after it is written.
 * Rejects with an `AbortError` when the client goes away or the simulator
 * closes mid-stream.
 */
export async function writeSse(call: Call, env: SimEnv, events: readonly SseEvent[], extra: StreamFaults = {}, hooks: SseHooks = {}): Promise<void> {
  const { quirks, streamDelayMs } = env.settings
  const faults = { ...env.faults.current, ...extra }
  // A fault given in `extra` was already noted by whoever chose it (chaos).
  const note = (key: keyof StreamFaults) => void (extra[key] === undefined && call.note(key))
  const newline = quirks.crlf ? '\r\n' : '\n'
  const text = (value: string) => (quirks.crlf ? value.replaceAll('\n', newline) : value)

  call.log.status = 200
  call.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
  call.res.flushHeaders()
  const endless = endlessStream(call, env.clock, faults, newline)
  if (endless) return endless
  if (faults.resetStreamAfter === 0) {
    note('resetStreamAfter')
    return call.destroy()
  }

  let frames = 0
  for (const [index, event] of events.entries()) {
    if (index > 0) await env.clock.sleep(streamDelayMs, call.signal)
    if (hooks.before?.(event) === false) break
    if (quirks.ping && index % 5 === 0) await writeChunk(call, text(': ping\n\n'))
    if (frames + 1 === faults.malformedFrameAt) {
      frames += 1
      call.note('malformedFrameAt')
      const bad = text(`event: ${event.type}\ndata: {"type": "${event.type}", oops\n\n`)
      if (frames === faults.resetStreamAfter) {
        note('resetStreamAfter')
        return writeThenDestroy(call, bad)
      }
      await writeChunk(call, bad)
    }
    frames += 1
    const frame = Buffer.from(text(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`))
    if (frames === faults.closeMidEventAt) {
      note('closeMidEventAt')
      call.res.end(frame.subarray(0, Math.floor(frame.length / 2)))
      return
    }
    if (frames === faults.resetStreamAfter) {
      note('resetStreamAfter')
      hooks.after?.(event)
      return writeThenDestroy(call, frame)
    }
    if (index === 0 && faults.drip) await drip(call, env, frame, faults.drip.everyMs)
    else await writeChunk(call, frame)
    hooks.after?.(event)
  }
  if (quirks.done) await writeChunk(call, text('data: [DONE]\n\n'))
  call.res.end()
}

/** Writes a frame one byte at a time, `everyMs` real ms apart (the `drip` fault). */
async function drip(call: Call, env: SimEnv, frame: Buffer, everyMs: number): Promise<void> {
  call.note('drip')
  for (let at = 0; at < frame.length; at++) {
    if (at > 0) await env.clock.sleep(everyMs, call.signal)
    await writeChunk(call, frame.subarray(at, at + 1))
  }
}

/** A stream whose first frame is cut halfway, then ends cleanly: a streamed creation's `garbledCreateReply`. */
export function sendGarbledStream(call: Call, first: SseEvent): void {
  const frame = Buffer.from(`event: ${first.type}\ndata: ${JSON.stringify(first)}\n\n`)
  call.log.status = 200
  call.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
  call.res.end(frame.subarray(0, Math.floor(frame.length / 2)))
}
