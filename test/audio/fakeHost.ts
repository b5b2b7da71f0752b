import type { AudioFetch, AudioReply, AudioRequestInit } from '../../src/audio/audioHttp.js'

/** How the stand-in file host answers, in process (no socket): enough to count what a probe asks for and reads. */
export interface FakeBehaviour {
  /** HEAD's status, and whether it gives the length (`length`: that Content-Length instead of the file's). Default 200 with the file's length. */
  readonly head?: { readonly status: number; readonly length?: number | null }
  /** Which GETs get their range honoured (206), by their order from 0; the others get the whole file (200). Default: all. */
  readonly honoursRange?: (nth: number) => boolean
  /** Whether a 206 says the file's total in `Content-Range` (a browser hides the header unless the host exposes it). Default true. */
  readonly rangeTotal?: boolean
  /** Body chunks of this many bytes, produced one per pull. Default: one chunk. */
  readonly chunk?: number
}

export interface FakeHost {
  readonly fetch: AudioFetch
  /** `METHOD range` of each request, e.g. `GET bytes=0-4095`, `HEAD -`. */
  readonly asked: string[]
  /** The init of each request. */
  readonly inits: AudioRequestInit[]
  /** Per GET, in order: chunks the body produced so far, and whether its reader cancelled it. */
  readonly bodies: { pulled: number; cancelled: boolean }[]
}

/** A body that produces `bytes` in `chunk`-byte pieces, one per pull, and records what was taken of it. */
export function countedBody(bytes: Uint8Array, chunk = Math.max(1, bytes.length)): { stream: ReadableStream<Uint8Array>; seen: { pulled: number; cancelled: boolean } } {
  const seen = { pulled: 0, cancelled: false }
  let at = 0
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close()
        seen.pulled++
        controller.enqueue(bytes.slice(at, (at += chunk)))
      },
      cancel() {
        seen.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, seen }
}

/** A host serving `file`: HEAD, one byte range per GET (416 past the end), or the whole file where it ignores the range. */
export function fakeHost(file: Uint8Array, behaviour: FakeBehaviour = {}): FakeHost {
  const { head = { status: 200 }, honoursRange = () => true, rangeTotal = true, chunk } = behaviour
  const asked: string[] = []
  const inits: AudioRequestInit[] = []
  const bodies: FakeHost['bodies'] = []
  let gets = 0
  const fetch: AudioFetch = async (_url, init) => {
    inits.push(init)
    asked.push(`${init.method} ${init.headers.range ?? '-'}`)
    if (init.method === 'HEAD') {
      const length = head.length === undefined ? file.length : head.length
      return reply(head.status, length === null ? {} : { 'content-length': String(length) }, null)
    }
    const nth = gets++
    const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(init.headers.range ?? '') ?? []
    if (a === undefined || !honoursRange(nth)) return served(200, file, { 'content-length': String(file.length) })
    const start = Number(a)
    if (start >= file.length) return reply(416, { 'content-range': `bytes */${file.length}` }, null)
    const end = Math.min(file.length, Number(b) + 1)
    const range = `bytes ${start}-${end - 1}/${rangeTotal ? file.length : '*'}`
    return served(206, file.subarray(start, end), { 'content-range': range, 'content-length': String(end - start) })
  }
  function served(status: number, bytes: Uint8Array, headers: Record<string, string>): AudioReply {
    const { stream, seen } = countedBody(bytes, chunk)
    bodies.push(seen)
    return reply(status, headers, stream)
  }
  return { fetch, asked, inits, bodies }
}

export const reply = (status: number, headers: Record<string, string>, body: ReadableStream<Uint8Array> | null): AudioReply => ({ status, headers: new Headers(headers), body: body as AudioReply['body'] })
