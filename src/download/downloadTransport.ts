import { fetchTransport } from '../transport/fetchTransport.js'
import { publicFetch } from '../transport/publicFetch.js'
import type { Transport } from '../transport/types.js'
import type { DownloadOptions } from './types.js'

/**
 * The transport a download uses. A result URL is an address rxgate did not
 * choose, so the default goes through `publicFetch`: each hop (redirects
 * included) is checked, and one to a private, loopback or link-local
 * address is refused with `InvalidRequestError` before it is reached,
 * unless `allowHosts` names it or `allowPrivateNetwork` is set. With a
 * caller's `fetch`, each hop's URL is checked and its hostname resolved and
 * checked (in Node) before that fetch connects, which resolves it again: the
 * checked address is not pinned, as the default's is. Behind a proxy (which
 * the default's own connection pool does not use), pass such a `fetch`.
 * A caller's `transport` is used as it is:
 * which addresses it may reach is then its own business.
 *
 * @example
 * ```ts
 * downloadTransport({ allowHosts: ['http://127.0.0.1:8080'] }) // a local gateway's results may be fetched
 * ```
 */
export function downloadTransport(options: DownloadOptions): Transport {
  if (options.transport) return options.transport
  return fetchTransport(
    publicFetch({
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
      allowPrivateNetwork: options.allowPrivateNetwork === true,
      field: 'url',
      what: 'download',
    }),
  )
}
