import { setTimeout as sleep } from 'node:timers/promises'

/**
 * A `fetch` for `download$` that continues the bytes a dead worker left in
 * `part` (see `openPart`). download$ resumes a broken transfer by itself
 * while its process lives; after a crash it starts at byte 0. So its first
 * request (the one without `Range`) is sent here as `Range: bytes=<n>-`
 * with `If-Range: <validator>`. A 206 of the same version is handed to
 * download$ as a plain 200 of the whole file: the bytes on disk, then the
 * rest from the network. Anything else (a 200 because the file changed, a
 * 416, a server that ignores ranges) starts the file again from byte 0,
 * and the new version's validator is saved before its first byte.
 * download$'s own `Range` requests, its address checks and its limits are
 * left as they are.
 *
 * `slowLinkMs` (tests only) delivers network bodies in 512-byte pieces that
 * far apart, so that a kill can land in the middle of a download.
 *
 * @example
 * download$(url, part.writable, { fetch: resumingFetch(part), allowHosts })
 */
export function resumingFetch(part, { slowLinkMs = 0, fetch = globalThis.fetch } = {}) {
  const paced = (res) => (slowLinkMs > 0 && res.body ? new Response(res.body.pipeThrough(slowLink(slowLinkMs)), res) : res)
  return async (url, init = {}) => {
    const headers = new Headers(init.headers)
    if (headers.has('range')) return paced(await fetch(url, init))
    if (part.resumable) {
      const from = part.size
      headers.set('range', `bytes=${from}-`)
      headers.set('if-range', part.validator)
      const res = await fetch(url, { ...init, headers })
      const total = restOf(res, from, part.validator)
      if (total !== undefined) {
        part.resumedFrom = from
        const whole = new Headers(res.headers)
        whole.delete('content-range')
        whole.set('content-length', String(total))
        return new Response(joined(part.prefix(from), paced(res).body), { status: 200, headers: whole })
      }
      if (res.status !== 200) {
        // A 416, or a 206 that is not the rest of our version: trust none of it, ask for the whole file.
        await res.body?.cancel()
        return begin(await fetch(url, init))
      }
      return begin(res)
    }
    return begin(await fetch(url, init))
  }

  function begin(res) {
    if (res.status === 200) part.restart(validatorOf(res))
    return paced(res)
  }
}

/** The whole file's size when `res` is exactly the rest of the version named by `validator`, from byte `from`; else undefined. */
function restOf(res, from, validator) {
  if (res.status !== 206 || res.headers.has('content-encoding')) return undefined
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '')
  if (!range || Number(range[1]) !== from || Number(range[2]) + 1 !== Number(range[3])) return undefined
  if (validatorOf(res) !== validator) return undefined
  return Number(range[3])
}

/** A strong ETag, else Last-Modified: what If-Range may carry. A compressed reply is never resumed. */
function validatorOf(res) {
  if (res.headers.has('content-encoding') && res.headers.get('content-encoding') !== 'identity') return undefined
  const etag = res.headers.get('etag')
  return etag && !etag.startsWith('W/') ? etag : (res.headers.get('last-modified') ?? undefined)
}

function joined(first, second) {
  const readers = [first.getReader(), second.getReader()]
  return new ReadableStream({
    async pull(controller) {
      for (;;) {
        const reader = readers[0]
        if (!reader) return controller.close()
        const { done, value } = await reader.read()
        if (!done) return controller.enqueue(value)
        readers.shift()
      }
    },
    cancel: (reason) => Promise.all(readers.map((reader) => reader.cancel(reason))),
  })
}

function slowLink(ms) {
  return new TransformStream({
    async transform(chunk, controller) {
      for (let at = 0; at < chunk.byteLength; at += 512) {
        await sleep(ms)
        controller.enqueue(chunk.subarray(at, at + 512))
      }
    },
  })
}
