import type { Call } from './call.js'
import { writeChunk, writeFill } from './write.js'

const HEAD = '{"error":{"message":"The simulator sends a huge error body on purpose (hugeErrorBody fault): '
const TAIL = '","type":"server_error","param":null,"code":"server_error"}}'

/**
 * Answers 500 with a JSON error body of `bytes` bytes (its message padded
 * with `x`), streamed with backpressure and without Content-Length; with
 * `Infinity` the message never ends, until the client leaves. A client must
 * cap what it reads of an error body.
 */
export async function sendHugeError(call: Call, bytes: number): Promise<void> {
  call.log.status = 500
  call.res.writeHead(500, { 'content-type': 'application/json' })
  await writeChunk(call, HEAD)
  await writeFill(call, 'x', bytes - HEAD.length - TAIL.length)
  call.res.end(TAIL)
}
