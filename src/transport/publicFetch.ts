import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { Agent, fetch as undiciFetch } from 'undici'
import { literalRange, privateRange } from './publicAddress.js'
import { hopByHop, PrivateAddressError, type PublicFetchOptions } from './publicHops.js'

export type { PublicNetworkOptions } from './allowHosts.js'
export type { PublicFetchOptions } from './publicHops.js'

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * `net.connect`'s `lookup`, checked: resolves every address of `hostname`
 * and refuses them all (a {@link PrivateAddressError}, no connection) when
 * any one is not public, since the socket may try each in turn. The
 * addresses checked are the ones the socket connects to: no second lookup
 * can answer differently (DNS rebinding) between the check and the connection.
 *
 * @example
 * ```ts
 * new Agent({ connect: { lookup: publicLookup } })
 * ```
 */
export function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, [])
    const refused = addresses.map((a) => privateRange(a.address)).find((range) => range !== undefined)
    if (refused !== undefined) return callback(new PrivateAddressError(refused), [])
    const [first] = addresses
    if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
    if (options.all) callback(null, addresses)
    else callback(null, first.address, first.family)
  })
}

// One pool for every checked request: connections are reused per origin, each opened through the checked lookup.
let checkedAgent: Agent | undefined

/**
 * A fetch for URLs rxgate did not choose (a user's audio file, a download):
 * it refuses loopback, private (RFC 1918), link-local (169.254.169.254,
 * cloud metadata), unique-local, carrier-grade NAT, multicast, reserved
 * and other non-public addresses, written in the URL or resolved from its
 * host, at every hop of a redirect chain. Redirects are followed here (at
 * most 5, http/https only). A refusal rejects with `InvalidRequestError`
 * (one issue at `field`) before anything reaches that host, and reads the
 * same whether a port there is open or closed.
 *
 * Allowed without checks: hosts in `allowHosts`, and everything with
 * `allowPrivateNetwork: true`. With a `fetch` of the caller's own, no DNS
 * is done here: URLs and literal addresses are checked (and `localhost`
 * by name), and the caller's fetch connects.
 *
 * @example
 * ```ts
 * const get = publicFetch({ field: 'audio_url', what: 'text-to-video request' })
 * await get('http://169.254.169.254/latest/meta-data/')
 * // rejects: Invalid text-to-video request: audio_url: refers to a private address (link-local); … Nothing was sent.
 * ```
 */
export function publicFetch(options: PublicFetchOptions): typeof globalThis.fetch {
  const own = options.fetch
  if (own) return hopByHop(options, (url, init) => own(url, init), (url) => literalRange(url, true))
  return hopByHop(
    options,
    (url, init, open) => {
      const dispatcher = open ? undefined : (checkedAgent ??= new Agent({ connect: { lookup: publicLookup } }))
      // undici's Response is the WHATWG one that Node's global fetch returns too.
      return undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), ...(dispatcher ? { dispatcher } : {}) }) as unknown as Promise<Response>
    },
    // Names are judged by the checked lookup, on the addresses they resolve to.
    (url) => literalRange(url, false),
  )
}
