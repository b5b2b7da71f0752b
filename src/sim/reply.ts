import type { Call } from './call.js'
import { writeChunk, writeFill } from './write.js'

/**
 * Sends a JSON reply and records its status. While the `hugeReply` fault is
 * set (`call.hugeReplyBytes`), a 2xx reply is padded with whitespace after
 * its opening `{` to about that many bytes and sent without Content-Length:
 * the document stays valid JSON with the same value, so a client without a
 * size limit parses it (slowly), and with `Infinity` it never ends.
 */
export async function sendJson(call: Call, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<void> {
  const text = JSON.stringify(body)
  call.log.status = status
  const huge = call.hugeReplyBytes
  if (huge !== undefined && status >= 200 && status < 300 && text.startsWith('{')) {
    call.note('hugeReply')
    call.res.writeHead(status, { ...headers, 'content-type': 'application/json' })
    await writeChunk(call, '{')
    await writeFill(call, ' ', huge - Buffer.byteLength(text))
    call.res.end(text.slice(1))
    return
  }
  call.res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  call.res.end(text)
}

/**
 * Sends a success status whose JSON body is cut in the middle, and ends the
 * reply cleanly (no Content-Length, so the cut is not a transport error):
 * the client receives a complete HTTP reply that does not parse.
 */
export function sendGarbled(call: Call, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  call.log.status = status
  call.res.writeHead(status, { 'content-type': 'application/json' })
  call.res.end(text.slice(0, Math.floor(text.length / 2)))
}

/** Sends a text reply of the given type (e.g. the HTML page of a bad poll reply). */
export function sendText(call: Call, status: number, type: string, text: string): void {
  call.log.status = status
  call.res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) })
  call.res.end(text)
}

/** Runs `callback` once the reply has been completely handed to the socket (not when it is cut or abandoned). */
export function onDelivered(call: Call, callback: () => void): void {
  call.res.once('finish', callback)
}
