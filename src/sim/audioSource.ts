import type { VirtualFile } from './virtualFile.js'

/** Bytes of an audio file from some offset, and the file's whole size when known. */
export interface Opened {
  readonly chunks: AsyncIterable<Uint8Array>
  readonly size?: number
  close(): void
}

/** Where the audio of a task is read from. */
export interface AudioSource {
  /** Opens the file's bytes from `start`, asking for `length` of them (a source may send more; the reader stops early). */
  open(start: number, length: number): Promise<Opened>
}

/** A file the simulator serves itself (its samples): read in process, so no request shows in the log. */
export function fileSource(file: VirtualFile): AudioSource {
  return {
    open: async (start, length) => ({
      chunks: (async function* () {
        yield file.slice(Math.min(start, file.size), Math.min(file.size, start + length))
      })(),
      size: file.size,
      close: () => {},
    }),
  }
}

/**
 * A file over HTTP, read with `Range: bytes=start-end`. The size comes from
 * `Content-Range` (206) or `Content-Length` (200, a server that ignores
 * ranges: the bytes before `start` are skipped). Any other status throws.
 */
export function httpSource(url: URL, signal: AbortSignal): AudioSource {
  return {
    async open(start, length) {
      const res = await fetch(url, { headers: { range: `bytes=${start}-${start + length - 1}` }, signal })
      if (res.status !== 200 && res.status !== 206) {
        await res.body?.cancel()
        throw new Error(`it answered HTTP ${res.status}`)
      }
      const total = res.status === 206 ? /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '')?.[1] : res.headers.get('content-length')
      const reader = res.body!.getReader()
      const skip = res.status === 200 ? start : 0
      return {
        chunks: (async function* () {
          for (let seen = 0; ; ) {
            const { done, value } = await reader.read()
            if (done) return
            const from = Math.max(0, skip - seen)
            seen += value.length
            if (from < value.length) yield value.subarray(from)
          }
        })(),
        ...(total ? { size: Number(total) } : {}),
        close: () => void reader.cancel().catch(() => {}),
      }
    },
  }
}
