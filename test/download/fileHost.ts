import { createHash, randomBytes } from 'node:crypto'
import type http from 'node:http'
import { gzipSync } from 'node:zlib'
import { startServer, type SeenRequest, type TestServer } from '../helpers/server.js'

/** How the loopback file host behaves; each answer can be set per request number (1-based). */
export interface FileHostOptions {
  readonly size?: number
  /** Sends `Accept-Ranges: bytes` and honours `Range` with a 206. Default true. */
  readonly ranges?: boolean
  /** Sends `Accept-Ranges: bytes` but answers every request (or those for which it returns true) with the whole file (a 200). */
  readonly ignoreRange?: boolean | ((n: number) => boolean)
  /** Sends a strong `ETag` of the file's bytes, and honours `If-Range` with it. Default true. */
  readonly etag?: boolean
  /** Per request: the file served is this other version (other bytes, so another `ETag`). */
  readonly version?: (n: number) => Buffer | undefined
  /** Answers a Range with a 206 whatever `If-Range` says, as a host that ignores it does. */
  readonly ignoreIfRange?: boolean
  /** Per request: destroy the socket after this many body bytes of that answer. */
  readonly dropAt?: (n: number) => number | undefined
  /** Per request: send this many body bytes and then nothing more, keeping the connection open. */
  readonly stallAt?: (n: number) => number | undefined
  /** Per request: answer with this status and a short body instead of the file. */
  readonly status?: (n: number) => number | undefined
  /** Per request: the body of that status (default: a JSON error naming the status). */
  readonly statusBody?: (n: number) => string | undefined
  /** Per request: the `Content-Range` to send with a 206 instead of the right one. */
  readonly contentRange?: (n: number, start: number) => string | undefined
  /** Per request: this many bytes more than the headers announce, sent without `Content-Length` (chunked). */
  readonly overrun?: (n: number) => number | undefined
  /**
   * Serves the file gzip-compressed whatever the request asks
   * (`Content-Encoding: gzip`, the compressed `Content-Length`, ranges and
   * `dropAt` counted in compressed bytes), as a CDN may. The file is then of
   * hex digits, so it compresses to about half.
   */
  readonly gzip?: boolean
}

export interface FileHost {
  readonly server: TestServer
  readonly bytes: Buffer
  readonly url: string
  readonly requests: SeenRequest[]
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`

/** A loopback server of one file of random bytes at `/files/result.mp4?sig=secret`, with faults per request. */
export async function fileHost(options: FileHostOptions = {}): Promise<FileHost> {
  const { size = 200_000, ranges = true, etag = true } = options
  const bytes = options.gzip ? Buffer.from(randomBytes(Math.ceil(size / 2)).toString('hex')).subarray(0, size) : randomBytes(size)
  const server = await startServer((req, res) => {
    const n = server.requests.indexOf(req) + 1
    const status = options.status?.(n)
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json' })
      return void res.end(options.statusBody?.(n) ?? JSON.stringify({ error: { message: `status ${status}` } }))
    }
    const original = options.version?.(n) ?? bytes
    // What travels: the file, or its gzip encoding (ranges and lengths count these bytes).
    const file = options.gzip ? gzipSync(original) : original
    const tag = etag ? etagOf(file) : undefined
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''))
    const ifRange = req.headers['if-range']
    const ignored = typeof options.ignoreRange === 'function' ? options.ignoreRange(n) : options.ignoreRange
    const honoured = ranges && !ignored && range && (options.ignoreIfRange || ifRange === undefined || ifRange === tag)
    const start = honoured ? Number(range[1]) : 0
    const extra = options.overrun?.(n)
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'video/mp4',
      ...(extra === undefined ? { 'content-length': file.length - start } : {}),
      ...(ranges ? { 'accept-ranges': 'bytes' } : {}),
      ...(tag ? { etag: tag } : {}),
      ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
    }
    if (start > 0) headers['content-range'] = options.contentRange?.(n, start) ?? `bytes ${start}-${file.length - 1}/${file.length}`
    res.writeHead(start > 0 ? 206 : 200, headers)
    const body = extra === undefined ? file.subarray(start) : Buffer.concat([file.subarray(start), randomBytes(extra)])
    const drop = options.dropAt?.(n)
    const stall = options.stallAt?.(n)
    if (drop !== undefined) return void res.write(body.subarray(0, drop), () => res.socket?.destroy())
    if (stall !== undefined) return void res.write(body.subarray(0, stall))
    res.end(body)
  })
  return { server, bytes, url: `${server.url}/files/result.mp4?sig=secret-signature`, requests: server.requests }
}
