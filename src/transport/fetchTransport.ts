import { toAbortSignal } from './abort.js'
import type { Transport, TransportResponse } from './types.js'

/**
 * A transport over a WHATWG `fetch` (the browser's, Node's, or any injected
 * one). The body is read through a reader rather than async iteration,
 * which not every browser gives `ReadableStream`.
 */
export function fetchTransport(fetchFn: typeof globalThis.fetch): Transport {
  return async ({ method, url, headers, body, signal }): Promise<TransportResponse> => {
    const res = await fetchFn(url, { method, headers, body, signal: toAbortSignal(signal) })
    return {
      status: res.status,
      header: (name) => res.headers.get(name) ?? undefined,
      body: readBody(res.body),
      text: () => res.text(),
    }
  }
}

async function* readBody(stream: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!stream) return
  const reader = stream.getReader()
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if ((done = next.done)) return
      yield next.value
    }
  } finally {
    // Stopping early (unsubscribe) must free the connection too. A body read
    // to its end is left alone: cancelling it then races the browser's own
    // end of the request, which it may show as cancelled.
    if (!done) reader.cancel().catch(() => {})
  }
}
