import { Agent, type Dispatcher } from 'undici'
import type { TransportResponse } from '../transport/types.js'
import { undiciTransport } from '../transport/undiciTransport.js'
import { RelayedStream } from './relayedStream.js'
import { Refusal } from './reply.js'
import { scrubbedChunks } from './scrubbedChunks.js'
import type { CallGateway } from './upstream.js'

/** Where undici (Node's own fetch included) keeps the process's global dispatcher. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

let own: Agent | undefined

/**
 * The relay's call in Node when the app gave no `fetch`: undici's
 * dispatcher, straight (the library's own Node transport), so an event
 * stream goes from socket to socket as Buffers, with no web stream and no
 * copy of each chunk (`fetch` makes both). It goes where the global `fetch`
 * would: through undici's global dispatcher when the app set one (a proxy
 * agent), else through an agent of its own with fetch's defaults. No
 * redirect is followed, an abort stops the call at any stage, and while the
 * browser takes a part slowly the gateway's socket is paused (after 64 KB
 * held). Unlike `fetch`, it asks for the reply uncompressed
 * (`accept-encoding: identity`), since it masks the bytes as they come,
 * and refuses a compressed one (502 `gateway_reply_encoded`) rather than
 * pass on what it cannot read.
 *
 * Loaded by the Node adapters at first use, so that `rxgate/server` loads
 * no undici where it only serves the fetch-style handler.
 *
 * @example
 * ```ts
 * const reply = await undiciCall({ method: 'POST', url, headers, body, signal })
 * ```
 */
export const undiciCall: CallGateway = async ({ method, url, headers, body, signal }) => {
  const dispatcher = (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER] ?? (own ??= new Agent())
  // The bytes are masked as they come: they must be the reply itself, not a compressed form of it.
  const reply = await undiciTransport({ dispatcher })({ method, url, headers: { ...headers, 'accept-encoding': 'identity' }, body, signal, stream: true })
  const coding = reply.header('content-encoding')
  if (coding !== undefined && !/^\s*identity\s*$/i.test(coding)) {
    void reply.body[Symbol.asyncIterator]().return?.()
    // The coding is not named: it is the gateway's text, which may hold anything.
    throw new Refusal(502, 'gateway_reply_encoded', "The gateway's reply is compressed although none was asked for; this server passes on only what it can mask.")
  }
  return {
    status: reply.status,
    header: (name) => reply.header(name),
    relay: (secret, init) => new RelayedStream(scrubbedChunks(reply.body, secret), init),
    // The Node transport's reply always reads text this way (it is optional for a transport over fetch).
    textUpTo: (limit) => (reply as Required<TransportResponse>).textUpTo(limit),
    discard: () => void reply.body[Symbol.asyncIterator]().return?.(),
  }
}
