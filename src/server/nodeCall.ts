import { fetchCall, type CallGateway } from './upstream.js'

let loading: Promise<CallGateway | undefined> | undefined
let loaded: CallGateway | undefined

/**
 * How the Node adapters reach the gateway: undici's dispatcher (see
 * `undiciCall`). It is loaded at the first call, when an adapter is made,
 * not when `rxgate/server` is, so an app that only serves the fetch-style
 * handler (on any runtime) loads no undici. A call made while it loads
 * waits for it; where it cannot load, the global `fetch` is used, as the
 * handler would.
 *
 * @example
 * ```ts
 * const response = await answerVia(handler, request, nodeCall())
 * ```
 */
export function nodeCall(): CallGateway {
  if (loaded) return loaded
  const load = (loading ??= import('./undiciCall.js').then(
    (module) => (loaded = module.undiciCall),
    () => undefined,
  ))
  return async (call) => ((await load) ?? fetchCall(globalThis.fetch))(call)
}
