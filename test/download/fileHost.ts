import { randomBytes } from 'node:crypto'
import type http from 'node:http'
import { startServer, type SeenRequest, type TestServer } from '../helpers/server.js'

/** How the loopback file host behaves; each answer can be set per request number (1-based). */
export interface FileHostOptions {
  readonly size?: number
  /** Sends `Accept-Ranges: bytes` and honours `Range` with a 206. Default true. */
  readonly ranges?: boolean
  /** Sends `Accept-Ranges: bytes` but answers every request with the whole file (a 200). */
  readonly ignoreRange?: boolean
  /** Per request: destroy the socket after this many body bytes of that answer. */
  readonly dropAt?: (n: number) => number | undefined
  /** Per request: send this many body bytes and then nothing more, keeping the connection open. */
  readonly stallAt?: (n: number) => number | undefined
  /** Per request: answer with this status and a short body instead of the file. */
  readonly status?: (n: number) => number | undefined
  /** Per request: the `Content-Range` to send with a 206 instead of the right one. */
  readonly contentRange?: (n: number, start: number) => string | undefined
}

export interface FileHost {
  readonly server: TestServer
  readonly bytes: Buffer
  readonly url: string
  readonly requests: SeenRequest[]
}

/** A loopback server of one file of random bytes at `/files/result.mp4?sig=secret`, with faults per request. */
export async function fileHost(options: FileHostOptions = {}): Promise<FileHost> {
  const { size = 200_000, ranges = true } = options
  const bytes = randomBytes(size)
  const server = await startServer((req, res) => {
    const n = server.requests.indexOf(req) + 1
    const status = options.status?.(n)
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ error: { message: `status ${status}` } }))
    }
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''))
    const start = ranges && !options.ignoreRange && range ? Number(range[1]) : 0
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'video/mp4', 'content-length': size - start, ...(ranges ? { 'accept-ranges': 'bytes' } : {}) }
    if (start > 0) headers['content-range'] = options.contentRange?.(n, start) ?? `bytes ${start}-${size - 1}/${size}`
    res.writeHead(start > 0 ? 206 : 200, headers)
    const body = bytes.subarray(start)
    const drop = options.dropAt?.(n)
    const stall = options.stallAt?.(n)
    if (drop !== undefined) return void res.write(body.subarray(0, drop), () => res.socket?.destroy())
    if (stall !== undefined) return void res.write(body.subarray(0, stall))
    res.end(body)
  })
  return { server, bytes, url: `${server.url}/files/result.mp4?sig=secret-signature`, requests: server.requests }
}
