import { errorCode } from '../errors/causes.js'
import { isInvalidRequestError } from '../errors/InvalidRequestError.js'

/** The request a probe sends: a plain one, carrying none of the client's headers. */
export interface AudioRequestInit {
  /** `HEAD` first, then ranged `GET`s of the file's header. */
  readonly method: 'HEAD' | 'GET'
  /** The probe's own headers (a `Range`), never the client's. */
  readonly headers: Record<string, string>
  /** Aborts the request: the check was unsubscribed or timed out. */
  readonly signal: AbortSignal
  /**
   * In Node, 'manual': the probe follows redirects itself, checking each
   * hop's address, and a fetch returns a 3xx as it is. In a browser,
   * 'follow': a manual redirect is opaque there, so the fetch follows them
   * and the probe checks the final URL.
   */
  readonly redirect: 'manual' | 'follow'
  /** In a browser: no cookies and no referrer, since the gateway reads the file with neither. */
  readonly credentials: 'omit'
  /** No referrer, as the gateway sends none when it reads the file. */
  readonly referrerPolicy: 'no-referrer'
}

/** What a probe reads of a reply; a WHATWG `Response` has it all. */
export type AudioReply = Pick<Response, 'status' | 'headers' | 'body'>

/**
 * Sends one request of the audio probe, to one hop: the probe checks each
 * URL and follows redirects itself (see `publicFetch`). `globalThis.fetch`
 * fits; a test or an app passes its own (a proxy, a double) as
 * `checkAudio: { fetch }`, and then connects itself: in Node the probe
 * still resolves each hop's hostname and refuses private addresses, but
 * the fetch resolves it again, so the checked address is not pinned. It is
 * never the client's transport: the file is on another origin, and must
 * not see the gateway's `Authorization` header.
 *
 * @example
 * ```ts
 * const seen: string[] = []
 * const logged: AudioFetch = (url, init) => (seen.push(`${init.method} ${url}`), fetch(url, init))
 * textToVideo$(client, body, { checkAudio: { fetch: logged } })
 * ```
 */
export type AudioFetch = (url: string, init: AudioRequestInit) => Promise<AudioReply>

/**
 * The file could not be read. `network`: the request failed without an
 * HTTP answer, which is all a browser says of a CORS refusal too.
 */
export class Unreadable extends Error {
  constructor(
    readonly reason: string,
    readonly network: boolean,
  ) {
    super(reason)
  }
}

/**
 * Sends a probe's request with only `headers`, and `Accept-Encoding:
 * identity` on a HEAD, so that its length counts the file's own bytes (a
 * fetch adds it to a request with `Range` itself, as the Fetch standard
 * says; browsers drop it, as they may). A failure without an answer
 * becomes {@link Unreadable}; a refused address (an `InvalidRequestError`
 * of `publicFetch`) passes through as it is.
 *
 * @example
 * ```ts
 * const res = await send((url, init) => fetch(url, init), 'https://cdn.example.com/voice.wav', 'HEAD', {}, signal)
 * ```
 */
export async function send(fetchAudio: AudioFetch, url: string, method: 'HEAD' | 'GET', headers: Record<string, string>, signal: AbortSignal): Promise<AudioReply> {
  try {
    return await fetchAudio(url, {
      method,
      headers: method === 'HEAD' ? { ...headers, 'accept-encoding': 'identity' } : headers,
      signal,
      redirect: 'manual',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    })
  } catch (error) {
    if (isInvalidRequestError(error)) throw error
    throw new Unreadable(failureOf(error), true)
  }
}

/** Why a request failed, from the first error code along the cause chain (Node's fetch wraps the socket's error). */
function failureOf(error: unknown): string {
  const code = errorCode(error)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `its host was not found (${code})`
  if (code !== undefined) return `the connection failed (${code})`
  return `the request failed (${error instanceof Error ? error.message : String(error)})`
}
