import { once } from 'node:events'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Call } from './call.js'

/**
 * Writes one chunk and, when the socket's buffer is full, waits until the
 * client has read enough ('drain'): a slow client slows the writer down
 * instead of filling the server's memory. Rejects with an `AbortError` once
 * the client has gone or the simulator closes.
 */
export async function writeChunk(call: Call, chunk: string | Uint8Array): Promise<void> {
  if (call.signal.aborted) throw call.signal.reason
  if (call.res.write(chunk)) await nextTurn(undefined, { signal: call.signal }) // let the event loop breathe
  else await once(call.res, 'drain', { signal: call.signal })
}

const FILL_CHUNK = 64 * 1024

/** Writes `bytes` copies of the one-byte `fill` (`Infinity`: until the client leaves), in 64 KiB chunks with backpressure. */
export async function writeFill(call: Call, fill: string, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(FILL_CHUNK, fill)
  for (let left = bytes; left > 0; left -= FILL_CHUNK) await writeChunk(call, left >= FILL_CHUNK ? chunk : chunk.subarray(0, left))
}

/** Writes `chunk`, then destroys the connection once it has been handed to the socket, so the client gets those bytes and then a reset. */
export function writeThenDestroy(call: Call, chunk: string | Uint8Array): void {
  if (chunk.length === 0) return call.destroy()
  call.res.write(chunk, () => call.destroy())
}
