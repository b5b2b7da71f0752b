import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Tests only: a `fetch` for `download$` that delivers bodies in 512-byte
 * pieces `ms` apart, a slow link on which a kill lands mid-download.
 *
 * @example
 * download$(url, file, { fetch: slowFetch(40), allowHosts })
 */
export function slowFetch(ms, fetch = globalThis.fetch) {
  return async (url, init) => {
    const res = await fetch(url, init)
    return res.body ? new Response(res.body.pipeThrough(slowLink(ms)), res) : res
  }
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
