import { publicFetch } from '../transport/publicFetch.js'
import type { PublicNetworkOptions } from '../transport/allowHosts.js'
import type { AudioFetch, AudioRequestInit } from './audioHttp.js'

/**
 * The probe's {@link AudioFetch}: `publicFetch`, so that an `audio_url`
 * (and every hop it redirects to) at a private address is refused with
 * `InvalidRequestError` at `audio_url` before anything reaches it, unless
 * `allowHosts` or `allowPrivateNetwork: true` says otherwise. A fetch of
 * the caller's own gets one request per hop (in Node, where each hop's
 * hostname is resolved and checked first), headers as a plain object, as
 * {@link AudioRequestInit} says.
 *
 * @example
 * ```ts
 * const fetchAudio = guardedFetch({ allowHosts: [sim.url] }, 'text-to-video request')
 * await readAudio(fetchAudio, sim.sampleUrl('tone-5s.wav'), signal)
 * ```
 */
export function guardedFetch(options: PublicNetworkOptions & { readonly fetch?: AudioFetch | undefined }, what: string): AudioFetch {
  const own = options.fetch
  const guarded = publicFetch({
    field: 'audio_url',
    what,
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    // Only `true` opens every address: a truthy string ("false" from an environment variable) does not.
    ...(options.allowPrivateNetwork === true ? { allowPrivateNetwork: true } : {}),
    ...(own ? { fetch: ((url: string, init: RequestInit) => own(url, audioInit(init))) as unknown as typeof globalThis.fetch } : {}),
  })
  // publicFetch follows the redirects: in Node hop by hop, each hop reaching a fetch with `redirect: 'manual'`.
  return (url, init) => guarded(url, { ...init, redirect: 'follow' })
}

/** One hop's request in the shape a caller's {@link AudioFetch} was promised. */
function audioInit(init: RequestInit): AudioRequestInit {
  return {
    method: init.method === 'HEAD' ? 'HEAD' : 'GET',
    headers: Object.fromEntries(new Headers(init.headers)),
    signal: init.signal ?? new AbortController().signal,
    // As publicFetch asks: 'manual' in Node; 'follow' in a browser, where a manual redirect is opaque.
    redirect: init.redirect === 'follow' ? 'follow' : 'manual',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  }
}
