import type { Call } from './call.js'
import { writeChunk, writeThenDestroy } from './write.js'

/** A file whose bytes are produced on demand, so a large one is never held in memory. */
export interface VirtualFile {
  readonly size: number
  /** Content type, e.g. `audio/wav`. */
  readonly type: string
  /** Bytes `start` (inclusive) to `end` (exclusive); at most 64 KiB are asked for at a time. */
  slice(start: number, end: number): Uint8Array
}

/** A virtual file over bytes held in memory. */
export function fileOf(bytes: Uint8Array, type: string): VirtualFile {
  return { size: bytes.length, type, slice: (start, end) => bytes.subarray(start, end) }
}

/** Options of {@link serveFile}. */
export interface ServeOptions {
  /** Destroy the socket after this many body bytes (the `dropDownloadAt` fault). */
  readonly dropAfter?: number
  readonly headers?: Readonly<Record<string, string>>
}

const CHUNK = 64 * 1024

/**
 * Serves a file: `Content-Length`, `Accept-Ranges: bytes`, one byte range
 * (`bytes=a-b`, `bytes=a-`, `bytes=-n`) as a 206 with `Content-Range`, an
 * unsatisfiable one as a 416 with `Content-Range: bytes * /size`; a Range
 * header it cannot read is ignored (200), as HTTP allows. `HEAD` gets the
 * headers only. An `If-Range` other than the file's `etag` or
 * `last-modified` header gets the whole file. The body is written in 64 KiB
 * chunks with backpressure.
 */
export async function serveFile(call: Call, file: VirtualFile, options: ServeOptions = {}): Promise<void> {
  const base = { 'content-type': file.type, 'accept-ranges': 'bytes', ...options.headers }
  // `If-Range` that does not name this file's validator asks for the whole file (RFC 9110, 13.1.5).
  const ifRange = call.req.headers['if-range']
  const current = ifRange === undefined || ifRange === options.headers?.etag || ifRange === options.headers?.['last-modified']
  const range = current ? rangeOf(call.req.headers.range, file.size) : undefined
  if (range === 'unsatisfiable') {
    call.log.status = 416
    call.res.writeHead(416, { 'content-range': `bytes */${file.size}`, 'content-length': 0 })
    return void call.res.end()
  }
  const [start, end] = range ?? [0, file.size]
  const status = range ? 206 : 200
  call.log.status = status
  call.res.writeHead(status, { ...base, 'content-length': end - start, ...(range ? { 'content-range': `bytes ${start}-${end - 1}/${file.size}` } : {}) })
  if (call.req.method === 'HEAD') return void call.res.end()
  for (let at = start; at < end; at += CHUNK) {
    const chunk = file.slice(at, Math.min(end, at + CHUNK))
    const sent = at - start
    if (options.dropAfter !== undefined && sent + chunk.length > options.dropAfter) {
      call.note('dropDownloadAt')
      return writeThenDestroy(call, chunk.subarray(0, options.dropAfter - sent))
    }
    await writeChunk(call, chunk)
  }
  call.res.end()
}

/** The one range asked for, as [start, end exclusive]; undefined for none (or one that cannot be read). */
function rangeOf(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const [, from = '', to = ''] = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '') ?? []
  if (!from && !to) return undefined
  if (!from) {
    const suffix = Number(to)
    return suffix === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size]
  }
  const start = Number(from)
  const last = to ? Math.min(Number(to), size - 1) : size - 1
  if (to && Number(to) < start) return undefined
  return start >= size ? 'unsatisfiable' : [start, last + 1]
}
