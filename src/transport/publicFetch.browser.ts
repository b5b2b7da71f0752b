import { namedLoopback } from './loopbackName.js'
import { hopByHop, type PublicFetchOptions } from './publicHops.js'

export type { PublicNetworkOptions } from './allowHosts.js'
export type { PublicFetchOptions } from './publicHops.js'

/**
 * Browser: `publicFetch` without DNS or address classification. A page
 * reaches what the browser lets it reach (CORS, and private network access
 * where the browser enforces it), from the user's own machine, so no server
 * of the app is exposed. Each URL is checked (http or https; no host named
 * `localhost`, unless allowed).
 *
 * The fetch (the page's own, or a `fetch` of the caller's) gets
 * `redirect: 'follow'` and follows redirects itself: the Fetch standard
 * hides each hop from a page, and a manual redirect is opaque (status 0, no
 * `Location`), so there is no hop to check. The final URL is checked
 * instead, and a fetch that answers a 3xx with its `Location` anyway (a
 * double, a wrapper) has it followed and checked here, at most 5.
 *
 * @example
 * ```ts
 * const get = publicFetch({ field: 'audio_url', what: 'text-to-video request' })
 * await get('http://localhost:8080/a.wav') // rejects: InvalidRequestError, nothing was sent
 * ```
 */
export function publicFetch(options: PublicFetchOptions): typeof globalThis.fetch {
  const send = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
  return hopByHop(options, (url, init) => send(url, { ...init, redirect: 'follow' }), namedLoopback)
}
