import { send, Unreadable, type AudioFetch } from './audioHttp.js'

/** The bytes of a ranged GET as they arrive. */
export interface OpenedRange {
  /** The server sent the range asked for (206); false: it ignored the range and sends the file from byte 0 (200). */
  readonly ranged: boolean
  /** The file's whole size, when the reply says it (`Content-Range` of a 206, `Content-Length` of a 200). */
  readonly total?: number
  readonly chunks: AsyncIterable<Uint8Array>
  /** Stops the download (cancels the body, which closes the connection when bytes are still coming). */
  close(): void
}

/**
 * `GET` with `Range: bytes=<start>-<start + length - 1>`. Any status but 200,
 * 206 and 416 (a range past the end: only an empty file, for a range at 0)
 * throws {@link Unreadable} naming it, as do failures while reading.
 *
 * @example
 * ```ts
 * const head = await openRange(fetchAudio, url, signal, 0, 4096)
 * for await (const chunk of head.chunks) { … }
 * head.close()
 * ```
 */
export async function openRange(fetchAudio: AudioFetch, url: string, signal: AbortSignal, start: number, length: number): Promise<OpenedRange> {
  const res = await send(fetchAudio, url, 'GET', { range: `bytes=${start}-${start + length - 1}` }, signal)
  const reader = res.body?.getReader()
  const close = () => void reader?.cancel().catch(() => {})
  const ok = res.status === 200 || res.status === 206
  if (!ok) close()
  if (res.status === 416) return { ranged: true, ...size(/\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '')?.[1]), chunks: nothing(), close }
  if (!ok) throw new Unreadable(`it answered HTTP ${res.status}`, false)
  const ranged = res.status === 206
  // A browser exposes Content-Range only when the host lists it in Access-Control-Expose-Headers.
  const total = ranged ? /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '')?.[1] : res.headers.get('content-length')
  return { ranged, ...size(total), chunks: reader ? chunksOf(reader) : nothing(), close }
}

/** A header's byte count as `{ total }`, or nothing when it is missing or not a count. */
export function size(value: string | null | undefined): { total?: number } {
  const n = value == null || !/^\s*\d+\s*$/.test(value) ? Number.NaN : Number(value)
  return Number.isSafeInteger(n) ? { total: n } : {}
}

async function* chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>
    try {
      next = await reader.read()
    } catch {
      throw new Unreadable('the connection closed while it was being read', false)
    }
    if (next.done) return
    yield next.value
  }
}

async function* nothing(): AsyncGenerator<Uint8Array> {}
