import { publicFetch } from '../transport/publicFetch.js'
import type { PublicNetworkOptions } from '../transport/allowHosts.js'
import type { AudioFetch, AudioRequestInit } from './audioHttp.js'

/**
 * The probe's {@link AudioFetch}: `publicFetch`, so that an `audio_url`
 * (and every hop it redirects to) at a private address is refused with
 * `InvalidRequestError` at `audio_url` before anything reaches it, unless
 * `allowHosts` or `allowPrivateNetwork` says otherwise. A fetch of the
 * caller's own gets one request per hop, with `redirect: 'manual'` and
 * headers as a plain object, as {@link AudioRequestInit} says.
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
    ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
    ...(own ? { fetch: ((url: string, init: RequestInit) => own(url, audioInit(init))) as unknown as typeof globalThis.fetch } : {}),
  })
  // publicFetch follows the redirects, hop by hop; each hop reaches a fetch with `redirect: 'manual'`.
  return (url, init) => guarded(url, { ...init, redirect: 'follow' })
}

/** One hop's request in the shape a caller's {@link AudioFetch} was promised. */
function audioInit(init: RequestInit): AudioRequestInit {
  return {
    method: init.method === 'HEAD' ? 'HEAD' : 'GET',
    headers: Object.fromEntries(new Headers(init.headers)),
    signal: init.signal ?? new AbortController().signal,
    redirect: 'manual',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  }
}
