import { scrubLines } from './scrubLines.js'

/** One call to the gateway, as the relay makes it: the URL is absolute, the headers final. */
export interface GatewayCall {
  /** The HTTP method. */
  readonly method: 'GET' | 'POST'
  /** The absolute URL: the gateway's base URL and the route's path. */
  readonly url: string
  /** Every header to send, the key's `authorization` among them. */
  readonly headers: Record<string, string>
  /** The JSON body, already checked and serialised, or none. */
  readonly body: string | undefined
  /** Aborts the call at any stage, the body included. */
  readonly signal: AbortSignal
}

/** The gateway's reply, whichever way the call was made. */
export interface GatewayReply {
  /** The HTTP status. */
  readonly status: number
  /** A header's value by (lower-case) name, or undefined when it was not sent. */
  header(name: string): string | undefined
  /** The browser's reply for this event stream: the body masked line by line as it passes, in the form the call reads it in. */
  relay(secret: string, init: ResponseInit): Response
  /** The body as text, at most `limit` bytes; `whole` is false when it went on past them (the rest is given up). Rejects when the body breaks off. */
  textUpTo(limit: number): Promise<{ readonly text: string; readonly whole: boolean }>
  /** Gives the body up unread. */
  discard(): void
}

/** Sends one call; rejects on a network failure or abort, resolves with any status. Redirects are not followed. */
export type CallGateway = (call: GatewayCall) => Promise<GatewayReply>

/**
 * The relay's call over a `fetch` (the `fetch` option, and the
 * fetch-style handler's default): redirects are not followed, and an event
 * stream is masked as a web stream, with {@link scrubLines}.
 *
 * @example
 * ```ts
 * const reply = await fetchCall(fetch)({ method: 'GET', url, headers, body: undefined, signal })
 * ```
 */
export function fetchCall(fetchFn: typeof globalThis.fetch): CallGateway {
  return async ({ method, url, headers, body, signal }) => {
    const res = await fetchFn(url, { method, headers, body, signal, redirect: 'manual' })
    return {
      status: res.status,
      header: (name) => res.headers.get(name) ?? undefined,
      relay: (secret, init) => new Response(res.body?.pipeThrough(scrubLines(secret)) ?? null, init),
      textUpTo: (limit) => readText(res.body, limit),
      discard: () => void res.body?.cancel().catch(() => {}),
    }
  }
}

async function readText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<{ text: string; whole: boolean }> {
  if (!body) return { text: '', whole: true }
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { text: text + decoder.decode(), whole: true }
    bytes += value.byteLength
    if (bytes > limit) {
      reader.cancel().catch(() => {})
      return { text: text + decoder.decode(value.subarray(0, value.byteLength - (bytes - limit))), whole: false }
    }
    text += decoder.decode(value, { stream: true })
  }
}
