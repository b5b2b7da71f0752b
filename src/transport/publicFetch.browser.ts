import { hopByHop, namedLoopback, type PublicFetchOptions } from './publicHops.js'

export type { PublicNetworkOptions } from './allowHosts.js'
export type { PublicFetchOptions } from './publicHops.js'

/**
 * Browser: `publicFetch` without DNS or address classification. A page
 * reaches what the browser lets it reach (CORS, and private network access
 * where the browser enforces it), from the user's own machine, so no server
 * of the app is exposed. Each URL is checked (http or https; no host named
 * `localhost`, unless allowed), and a caller's `fetch` gets
 * `redirect: 'manual'` and its redirects are followed and checked here, at
 * most 5. The page's own fetch follows redirects itself, as the Fetch
 * standard hides each hop from the page (a manual one is opaque): there
 * the final URL is checked. The browser's own rules (CORS, and private
 * network access where the browser enforces it) keep a page from reading
 * a host that did not agree.
 *
 * @example
 * ```ts
 * const get = publicFetch({ field: 'audio_url', what: 'text-to-video request' })
 * await get('http://localhost:8080/a.wav') // rejects: InvalidRequestError, nothing was sent
 * ```
 */
export function publicFetch(options: PublicFetchOptions): typeof globalThis.fetch {
  const own = options.fetch
  return hopByHop(options, own ? (url, init) => own(url, init) : (url, init) => globalThis.fetch(url, { ...init, redirect: 'follow' }), namedLoopback)
}
