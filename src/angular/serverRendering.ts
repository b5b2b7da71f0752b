import { Subscription, type SchedulerLike } from 'rxjs'
import type { ClientOptions } from '../client.js'
import type { Transport } from '../transport/types.js'

/**
 * A transport that never answers, and lets go when the call is unsubscribed.
 * No request leaves, so no render waits on one and nothing is paid twice.
 */
const waitForever: Transport = ({ signal }) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('The request was aborted.', 'AbortError')), { once: true }))

/**
 * A scheduler whose timers never fire. The client's timeouts and retry
 * delays would otherwise be timers, and with zone.js a pending timer keeps
 * the app from becoming stable, which holds the server's render.
 */
const neverScheduler: SchedulerLike = { now: () => Date.now(), schedule: () => new Subscription() }

/**
 * The options of a server-side render's client: every call checks its input
 * as in the browser, then waits without sending anything until it is
 * unsubscribed (when the rendered app is destroyed); the `audio_url` check of
 * `textToVideo$` is not made either. The browser sends the call (and makes
 * the check) once the hydrated page subscribes.
 *
 * The browser's options (a relative `baseUrl`, no key) are not those of a
 * server client, so a stand-in address and key are used: nothing is sent
 * to them.
 */
export function serverRendering(options: ClientOptions): ClientOptions {
  return {
    ...options,
    // https: createClient refuses a key over plain http to another host, a stand-in one included.
    baseUrl: 'https://server-render.invalid',
    apiKey: 'nothing-is-sent-during-server-rendering',
    // Not a key; allowed even where a server-side DOM defines `document`.
    dangerouslyAllowBrowser: true,
    // The `audio_url` check of `textToVideo$` reads with a fetch of its own, not the transport: it is left to the browser too.
    serverRendering: true,
    // An exchange of the app's own would be used before the transport: none, so nothing can leave.
    exchange: undefined,
    transport: waitForever,
    scheduler: neverScheduler,
  }
}
