import type { SimEnv } from './env.js'
import type { Call } from './http.js'

/** One stream event: its JSON repeats the SSE `event` name as `type`. */
export interface SseEvent {
  readonly type: string
  readonly sequence_number: number
  readonly [field: string]: unknown
}

/**
 * Streams events as server-sent events, `event: <type>\ndata: <json>\n\n`,
 * with `settings.streamDelayMs` of real time between frames so the stream is
 * observably incremental. Applies the quirks (`: ping`, `\r\n`, `[DONE]`)
 * and the stream faults in force when it starts: a non-JSON frame at
 * `malformedFrameAt`, and a destroyed socket after `resetStreamAfter` frames.
 * Rejects with an `AbortError` when the client goes away or the simulator
 * closes mid-stream.
 */
export async function writeSse(call: Call, env: SimEnv, events: readonly SseEvent[]): Promise<void> {
  const { quirks, streamDelayMs } = env.settings
  const { malformedFrameAt, resetStreamAfter } = env.faults.current
  const newline = quirks.crlf ? '\r\n' : '\n'
  const write = (text: string, flushed?: () => void) => call.res.write(quirks.crlf ? text.replaceAll('\n', newline) : text, flushed)
  let frames = 0
  /** Writes one frame; false when the reset fault cuts the connection after it (once it is flushed, so the client gets it). */
  const frame = (text: string): boolean => {
    frames += 1
    const cut = frames === resetStreamAfter
    write(text, cut ? () => call.destroy() : undefined)
    return !cut
  }

  call.log.status = 200
  call.res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  call.res.flushHeaders()
  if (resetStreamAfter === 0) return call.destroy()

  for (const [index, event] of events.entries()) {
    // Rejects once the client has gone or the simulator closes, ending the loop.
    if (index > 0) await env.clock.sleep(streamDelayMs, call.signal)
    if (quirks.ping && index % 5 === 0) write(': ping\n\n')
    if (frames + 1 === malformedFrameAt && !frame(`event: ${event.type}\ndata: {"type": "${event.type}", oops\n\n`)) return
    if (!frame(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)) return
  }
  if (quirks.done) write('data: [DONE]\n\n')
  call.res.end()
}
