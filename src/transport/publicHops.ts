import { causes } from '../errors/causes.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { isAllowedHost, type PublicNetworkOptions } from './allowHosts.js'

/** Options of `publicFetch`. */
export interface PublicFetchOptions extends PublicNetworkOptions {
  /**
   * A fetch of the caller's own (a proxy's, a test double). Each URL is
   * still checked. In Node, redirects are still followed here hop by hop,
   * and each hop's hostname is resolved and refused when an address is not
   * public; the connection is the caller's and its fetch resolves the name
   * again, so the checked address is not pinned. In a browser it follows
   * redirects itself and the final URL is checked (see `publicFetch`).
   */
  readonly fetch?: typeof globalThis.fetch
  /** The issue path of a refusal, e.g. 'audio_url' or 'url'. */
  readonly field: string
  /** The subject of the InvalidRequestError, e.g. 'text-to-video request' or 'download'. */
  readonly what: string
}

/**
 * The non-public range a URL's host is written in (an address, or a name
 * that means loopback), or undefined. Each platform brings its own: Node
 * classifies addresses; a browser, whose fetch only the page's own rules
 * govern, knows `localhost` by name.
 */
export type WrittenRange = (url: URL) => string | undefined

/** A lookup that found a non-public address: the connection was not made. Carried as the `cause` of the fetch's failure. */
export class PrivateAddressError extends Error {
  override name = 'PrivateAddressError' as const
  constructor(readonly range: string) {
    super(`refused a private address (${range})`)
  }
}

/**
 * Sends one hop, asked with `redirect: 'manual'` (a browser's send follows
 * redirects instead, as a manual one is opaque there). `open`: its host is
 * allowed without the address checks, so a platform that checks resolved
 * addresses skips them.
 */
export type SendHop = (url: string, init: RequestInit, open: boolean) => Promise<Response>

/** Redirects followed at most, as browsers' 20 would let a chain wander far. */
export const MAX_REDIRECTS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])
const PRIVATE_ADVICE = 'rxgate does not fetch private networks unless the host is in allowHosts or allowPrivateNetwork is true'

/** A request between hops: what a redirect may change. */
interface Hop {
  readonly url: URL
  readonly method: string
  readonly headers: Headers
  readonly body: BodyInit | null | undefined
}

/**
 * The platform-neutral half of `publicFetch`: checks each hop's URL (http or
 * https; a host in a range that `written` names is refused unless allowed),
 * sends it through `send`, and
 * follows redirects itself, at most {@link MAX_REDIRECTS}, as fetch would
 * (a 303, or a 301/302 of a POST, goes on as a GET without its body;
 * credentials are dropped on a change of origin). A {@link PrivateAddressError}
 * from `send` (a checked lookup) is the same refusal as a literal address.
 *
 * @example
 * ```ts
 * const guarded = hopByHop({ field: 'url', what: 'download' }, (url, init) => fetch(url, init), namedLoopback)
 * await guarded('http://169.254.169.254/latest/meta-data') // rejects: InvalidRequestError, nothing was sent
 * ```
 */
export function hopByHop(options: PublicFetchOptions, send: SendHop, written: WrittenRange): typeof globalThis.fetch {
  return async (input, init) => {
    const request = typeof Request !== 'undefined' && input instanceof Request ? input : undefined
    const base: RequestInit = { ...init, signal: init?.signal ?? request?.signal ?? null }
    let hop: Hop = { url: new URL(request ? request.url : String(input)), method: (init?.method ?? request?.method ?? 'GET').toUpperCase(), headers: new Headers(init?.headers ?? request?.headers), body: init?.body }
    const mode = init?.redirect ?? request?.redirect ?? 'follow'
    for (let redirects = 0; ; redirects++) {
      // The scheme first, on every hop: an allowed host skips the address check, never this one.
      refuseScheme(hop.url, redirects > 0, options)
      refuseCredentials(hop.url, redirects > 0, options)
      const open = isAllowedHost(hop.url, options)
      if (!open) refuseAddress(hop.url, redirects > 0, written, options)
      // A Request's body is a stream, which fetch sends only with `duplex` and never again on a 307:
      // once its URL passed, its bytes are read (as long as the signal allows) and sent on each hop.
      if (redirects === 0 && hop.body === undefined && request?.body) hop = { ...hop, body: await bytesOf(request, base.signal ?? request.signal) }
      let res: Response
      try {
        res = await send(hop.url.href, { ...base, method: hop.method, headers: hop.headers, body: hop.body ?? null, redirect: 'manual' }, open)
      } catch (error) {
        const refused = privateCause(error)
        throw refused === undefined ? error : refusal(options, `${redirects > 0 ? 'redirects' : 'refers'} to a private address (${refused}); ${PRIVATE_ADVICE}`)
      }
      // A browser's own fetch follows redirects itself and hides each hop: the last one is checked here at least.
      if (res.redirected && res.url) checkFinal(res, written, options)
      const location = REDIRECTS.has(res.status) ? res.headers.get('location') : null
      if (location === null || mode === 'manual') return res
      void res.body?.cancel().catch(() => {})
      if (mode === 'error') throw new TypeError(`fetch failed: redirected (HTTP ${res.status}) with redirect: 'error'`)
      if (redirects === MAX_REDIRECTS) throw refusal(options, `redirects more than ${MAX_REDIRECTS} times; rxgate follows at most ${MAX_REDIRECTS} redirects`)
      hop = nextHop(hop, res.status, locationOf(location, hop.url, res.status))
    }
  }
}

/** A Request's body as bytes; an abort of `signal` stops the read and rejects with its reason. */
async function bytesOf(request: Request, signal: AbortSignal): Promise<ArrayBuffer> {
  signal.throwIfAborted()
  let stop: (() => void) | undefined
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason)
    signal.addEventListener('abort', stop)
  })
  try {
    return await Promise.race([request.arrayBuffer(), aborted])
  } finally {
    signal.removeEventListener('abort', stop!)
  }
}

/** Refuses a hop with a scheme other than http(s), before anything is sent: whatever `allowHosts` or `allowPrivateNetwork` say. */
function refuseScheme(url: URL, redirected: boolean, options: PublicFetchOptions): void {
  if (url.protocol === 'http:' || url.protocol === 'https:') return
  throw refusal(options, redirected ? `redirects to a ${url.protocol} URL; rxgate follows only http:// and https:// redirects` : 'must be an http:// or https:// URL')
}

/**
 * Refuses a hop whose URL holds a user name or password, before anything is
 * sent: fetch would throw an error that quotes the whole URL, query (a
 * signature) and password included.
 */
function refuseCredentials(url: URL, redirected: boolean, options: PublicFetchOptions): void {
  if (!url.username && !url.password) return
  throw refusal(options, redirected ? 'redirects to a URL with a user name or password; rxgate does not follow such redirects' : 'must not hold a user name or password')
}

/** A redirect's target; a `Location` that is no URL fails as fetch does, without the parser's error, which quotes the signed URL it was read against. */
function locationOf(location: string, base: URL, status: number): URL {
  try {
    return new URL(location, base)
  } catch {
    throw new TypeError(`fetch failed: redirected (HTTP ${status}) to a Location that is not a URL`)
  }
}

/** Refuses a hop whose host is written as a private address (or named loopback), before anything is sent. */
function refuseAddress(url: URL, redirected: boolean, written: WrittenRange, options: PublicFetchOptions): void {
  const range = written(url)
  if (range !== undefined) throw refusal(options, `${redirected ? 'redirects' : 'refers'} to a private address (${range}); ${PRIVATE_ADVICE}`)
}

/** The final URL of a fetch that followed redirects itself: the same checks as a hop, after the fact (its body is dropped). */
function checkFinal(res: Response, written: WrittenRange, options: PublicFetchOptions): void {
  const url = new URL(res.url)
  try {
    refuseScheme(url, true, options)
    if (!isAllowedHost(url, options)) refuseAddress(url, true, written, options)
  } catch (error) {
    void res.body?.cancel().catch(() => {})
    throw error
  }
}

/** The next request, by fetch's rules for a redirect of `status` to `url`. */
function nextHop(hop: Hop, status: number, url: URL): Hop {
  const headers = new Headers(hop.headers)
  if (url.origin !== hop.url.origin) for (const name of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(name)
  const toGet = (status === 303 && hop.method !== 'GET' && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST')
  if (toGet) {
    for (const name of ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length']) headers.delete(name)
    return { url, method: 'GET', headers, body: null }
  }
  // A stream cannot be sent twice: fetch fails such a redirect too.
  if (typeof ReadableStream !== 'undefined' && hop.body instanceof ReadableStream) throw new TypeError(`fetch failed: cannot send a streamed body again on a redirect (HTTP ${status})`)
  return { url, method: hop.method, headers, body: hop.body }
}

/** The range of a {@link PrivateAddressError} along the cause chain (fetch wraps the socket's error). */
function privateCause(error: unknown): string | undefined {
  for (const e of causes(error)) if (e instanceof PrivateAddressError) return e.range
  return undefined
}

/** A refusal: one issue at the caller's field, never the URL's query (it may hold a signature). */
function refusal(options: PublicFetchOptions, message: string): InvalidRequestError {
  return new InvalidRequestError([{ path: options.field, message }], options.what)
}
