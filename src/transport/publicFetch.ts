import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, fetch as undiciFetch } from 'undici'
import { literalRange, privateRange } from './publicAddress.js'
import { hopByHop, PrivateAddressError, type PublicFetchOptions, type SendHop } from './publicHops.js'

export type { PublicNetworkOptions } from './allowHosts.js'
export type { PublicFetchOptions } from './publicHops.js'

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** The range of the first non-public address among `addresses`, or undefined when all are public. */
const firstPrivate = (addresses: readonly LookupAddress[]): string | undefined => addresses.map((a) => privateRange(a.address)).find((range) => range !== undefined)

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
    const refused = firstPrivate(addresses)
    if (refused !== undefined) return callback(new PrivateAddressError(refused), [])
    const [first] = addresses
    if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
    if (options.all) callback(null, addresses)
    else callback(null, first.address, first.family)
  })
}

/**
 * Before a caller's fetch connects to `url`: resolves its hostname and
 * rejects with a {@link PrivateAddressError} when any address is not
 * public. A written address was judged already; a name that does not
 * resolve here (not found, no resolver) is left to the caller's fetch,
 * which may reach it another way (a proxy resolves names itself).
 */
async function checkName(url: URL): Promise<void> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(hostname) !== 0) return
  const addresses = await new Promise<LookupAddress[]>((resolve) => dnsLookup(hostname, { all: true }, (error, found) => resolve(error ? [] : found)))
  const refused = firstPrivate(addresses)
  if (refused !== undefined) throw new PrivateAddressError(refused)
}

// One pool for every checked request: connections are reused per origin, each opened through the checked lookup.
let checkedAgent: Agent | undefined

/**
 * A fetch for URLs rxgate did not choose (a user's audio file, a download):
 * it refuses loopback, private (RFC 1918), link-local (169.254.169.254,
 * cloud metadata), unique-local, carrier-grade NAT, multicast, reserved
 * and other non-public addresses, written in the URL or resolved from its
 * host, at every hop of a redirect chain. Redirects are followed here (at
 * most 5, http/https only). A URL with a user name or password is refused
 * at any hop. A refusal rejects with `InvalidRequestError` (one issue at
 * `field`) before anything reaches that host, and reads the same whether a
 * port there is open or closed.
 *
 * Allowed without the address checks: hosts in `allowHosts`, and everything
 * with `allowPrivateNetwork: true` (the scheme is checked all the same).
 *
 * The default connects through an undici `Agent` of its own whose lookup
 * is checked, so the address checked is the address connected to. That
 * Agent does not go through a global dispatcher: a proxy set with
 * `setGlobalDispatcher(new ProxyAgent(…))` or `EnvHttpProxyAgent` is not
 * used. Behind a proxy, pass a `fetch` of your own that uses it.
 *
 * With a `fetch` of the caller's own, each hop's hostname is resolved here
 * (`dns.lookup`, every address) and refused as above when any address is
 * not public; a name that does not resolve here is passed on, as the
 * caller's fetch (a proxy) may resolve it another way. This is weaker than
 * the default: the caller's fetch resolves the name again, and a DNS server
 * that answers differently the second time (DNS rebinding) is not caught.
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
  if (own) {
    const send: SendHop = async (url, init, open) => {
      if (!open) {
        await checkName(new URL(url))
        init.signal?.throwIfAborted() // unsubscribed during the lookup: nothing is sent
      }
      return own(url, init)
    }
    // `localhost` is judged by name (it never reaches the lookup); other names by the addresses they resolve to.
    return hopByHop(options, send, (url) => literalRange(url, true))
  }
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
