import type { Transport, TransportRequest, TransportResponse } from '../../src/transport/types.js'

/** A body the test feeds: chunks arrive when pushed, the end when ended. */
export interface FedBody {
  push(chunk: string | Uint8Array): void
  end(): void
  fail(error: unknown): void
}

/** How the fake gateway answers one request. */
export interface FakeReply {
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
  /** Whole text, chunks, or `'fed'` for a body the test feeds through `seen.body$`. */
  readonly body?: string | readonly (string | Uint8Array)[] | 'fed'
}

/** One request as the fake gateway saw it. */
export interface SeenRequest {
  readonly n: number
  readonly method: string
  readonly url: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string | undefined
  readonly json: unknown
  /** True once the client aborted the request (at any stage). */
  aborted: boolean
  /** The fed body, when the reply asked for one. */
  fed?: FedBody
  /** Whether the client read the body to its end. */
  readToEnd: boolean
}

export interface FakeGateway {
  readonly transport: Transport
  readonly requests: SeenRequest[]
  /** The n-th request (1-based). */
  request(n: number): SeenRequest
}

const encoder = new TextEncoder()

/**
 * A scripted transport: `answer` decides each reply (or throws / returns an
 * Error to fail the exchange, like a network error). Nothing touches a
 * socket, so timers can run on a virtual clock.
 */
export function fakeGateway(answer: (req: SeenRequest) => FakeReply | Error | Promise<FakeReply | Error>): FakeGateway {
  const requests: SeenRequest[] = []
  const transport: Transport = async (request: TransportRequest): Promise<TransportResponse> => {
    const url = new URL(request.url)
    let json: unknown
    try {
      json = request.body === undefined ? undefined : JSON.parse(request.body)
    } catch {
      json = undefined
    }
    const seen: SeenRequest = {
      n: requests.length + 1,
      method: request.method,
      url: request.url,
      path: url.pathname + url.search,
      headers: request.headers,
      body: request.body,
      json,
      aborted: false,
      readToEnd: false,
    }
    requests.push(seen)
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => {
        seen.aborted = true
        reject(Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'UND_ERR_ABORTED' }))
      }
      if (request.signal.aborted) onAbort()
      else request.signal.addEventListener('abort', onAbort, { once: true })
    })
    aborted.catch(() => {})
    const reply = await Promise.race([Promise.resolve().then(() => answer(seen)), aborted])
    if (reply instanceof Error) throw reply
    const chunks: Uint8Array[] = []
    let ended = false
    let failure: unknown
    let wake: (() => void) | undefined
    const poke = () => {
      wake?.()
      wake = undefined
    }
    const fed: FedBody = {
      push: (chunk) => (chunks.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk), poke()),
      end: () => ((ended = true), poke()),
      fail: (error) => ((failure = error), poke()),
    }
    if (reply.body === 'fed') seen.fed = fed
    else {
      const parts = reply.body === undefined ? [] : typeof reply.body === 'string' ? [reply.body] : reply.body
      for (const part of parts) fed.push(part)
      fed.end()
    }
    async function* body(): AsyncGenerator<Uint8Array> {
      for (;;) {
        while (chunks.length > 0) yield chunks.shift()!
        if (failure !== undefined) throw failure
        if (ended) {
          seen.readToEnd = true
          return
        }
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted])
      }
    }
    const headers = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
    return {
      status: reply.status ?? 200,
      header: (name) => headers[name],
      body: body(),
      text: async () => {
        let text = ''
        const decoder = new TextDecoder()
        for await (const chunk of body()) text += decoder.decode(chunk, { stream: true })
        return text + decoder.decode()
      },
    }
  }
  return { transport, requests, request: (n) => requests[n - 1]! }
}

/** A JSON reply. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): FakeReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }
}

/** An SSE frame for an event (its `type` as the SSE event name). */
export function frame(event: { type: string } & Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
}

/** A network error with a code, as undici raises them. */
export function networkError(code: string): Error {
  return Object.assign(new Error(`connect ${code}`), { code })
}
