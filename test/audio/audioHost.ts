import type http from 'node:http'
import { startServer, type SeenRequest, type TestServer } from '../helpers/server.js'

/** How the stand-in file host behaves. */
export interface HostBehaviour {
  /** Answer `Range: bytes=a-b` with a 206 (default), or ignore it and send the whole file (200). */
  readonly ranges?: boolean
  /** HEAD: answered with the length (default), refused with 405, or answered without a length. */
  readonly head?: 'length' | 'refuse' | 'no-length'
  /** Write bodies in pieces of this many bytes, a moment apart, so headers arrive split. */
  readonly trickle?: number
  /** Send the first `stallAfter` body bytes, then nothing more (the connection stays open). */
  readonly stallAfter?: number
}

export interface AudioHost extends TestServer {
  /** Body bytes written so far, over every reply. */
  sent(): number
  /** `METHOD range` of each request, e.g. `GET bytes=0-4095`, `HEAD -`. */
  asked(): string[]
}

/**
 * A user's file host on 127.0.0.1 serving `file` at any path: HEAD, single
 * byte ranges, CORS, and what each reply wrote. Closed after the test.
 */
export async function audioHost(file: Uint8Array, behaviour: HostBehaviour = {}): Promise<AudioHost> {
  const { ranges = true, head = 'length', trickle, stallAfter } = behaviour
  let sent = 0
  const server = await startServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'content-type': 'audio/wav' }
    if (req.method === 'HEAD') {
      if (head === 'refuse') return res.writeHead(405, { allow: 'GET' }).end()
      return res.writeHead(200, head === 'length' ? { ...cors, 'content-length': file.length } : { ...cors, 'transfer-encoding': 'chunked' }).end()
    }
    const [, a, b] = (ranges && /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''))) || []
    if (a !== undefined && Number(a) >= file.length) return res.writeHead(416, { 'content-range': `bytes */${file.length}` }).end()
    const start = a === undefined ? 0 : Number(a)
    const end = a === undefined ? file.length : Math.min(file.length, Number(b) + 1)
    const range = a === undefined ? {} : { 'content-range': `bytes ${start}-${end - 1}/${file.length}` }
    res.writeHead(a === undefined ? 200 : 206, { ...cors, ...range, 'content-length': end - start })
    await pump(res, file.subarray(start, end), trickle, stallAfter, (n) => (sent += n))
  })
  return {
    ...server,
    sent: () => sent,
    asked: () => server.requests.map((r: SeenRequest) => `${r.method} ${r.headers.range ?? '-'}`),
  }
}

/** Waits for 'drain' or 'close', whichever comes first, leaving no listener of the other on the response. */
function drainOrClose(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done)
      resolve()
    }
    res.once('drain', done).once('close', done)
  })
}

/** Writes `body` with backpressure, in `piece`-byte writes a moment apart when asked, stopping at `stallAfter`. */
async function pump(res: http.ServerResponse, body: Uint8Array, piece = 64 * 1024, stallAfter = Infinity, count: (n: number) => void): Promise<void> {
  for (let at = 0; at < body.length; at += piece) {
    if (res.destroyed || at >= stallAfter) return // stalled: the reply stays open
    const part = body.subarray(at, Math.min(at + piece, stallAfter, body.length))
    count(part.length)
    if (!res.write(part)) await drainOrClose(res)
    if (piece < 64 * 1024) await new Promise((resolve) => setTimeout(resolve, 1))
  }
  if (body.length <= stallAfter) res.end()
}
