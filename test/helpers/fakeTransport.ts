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
  /**
   * Whole text; chunks; a lazily pulled iterable (e.g. an endless generator:
   * pulled only as fast as the client reads); or `'fed'` for a body the test
   * feeds through `request(n).fed`.
   */
  readonly body?: string | readonly (string | Uint8Array)[] | Iterable<string | Uint8Array> | 'fed'
}

/** One request as the fake gateway saw it. */
export interface SeenRequest {
  readonly n: number
  readonly method: string
  readonly url: string
  /** Path and query. */
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
  /** Bytes of the body the client has taken. */
  bytesRead: number
  /** Whether the client marked the request as a long-lived stream. */
  readonly stream: boolean
}

export interface FakeGateway {
  readonly transport: Transport
  readonly requests: SeenRequest[]
  /** The n-th request (1-based). */
  request(n: number): SeenRequest
}

export interface FakeGatewayOptions {
  /**
   * Replies also offer `read` (chunks pushed to the reader, as the Node
   * transport does), so a stream is read that way instead of by iterating
   * `body`. The reader can stop only by aborting the request.
   */
  readonly push?: boolean
}

/** What `answer` may return: a reply, an Error to fail the exchange like a network error, or a promise of either. */
export type Answer = (req: SeenRequest) => FakeReply | Error | Promise<FakeReply | Error>

const encoder = new TextEncoder()
const bytes = (chunk: string | Uint8Array): Uint8Array => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk)

/** A promise that never settles: an answer that hangs until the client aborts. */
export const never = (): Promise<never> => new Promise<never>(() => {})

/**
 * A scripted transport: `answer` decides each reply. Nothing touches a
 * socket, so every timer can run on a virtual clock. It records each request
 * (headers and body), whether the client aborted it, and whether the client
 * read its body to the end.
 */
export function fakeGateway(answer: Answer, { push = false }: FakeGatewayOptions = {}): FakeGateway {
  const requests: SeenRequest[] = []
  const transport: Transport = async (request: TransportRequest): Promise<TransportResponse> => {
    const url = new URL(request.url, 'http://relative.invalid')
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
      headers: { ...request.headers },
      body: request.body,
      json,
      aborted: false,
      readToEnd: false,
      bytesRead: 0,
      stream: request.stream === true,
    }
    requests.push(seen)
    let wake: (() => void) | undefined
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => {
        seen.aborted = true
        wake?.()
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
    const poke = () => {
      wake?.()
      wake = undefined
    }
    const fed: FedBody = {
      push: (chunk) => (chunks.push(bytes(chunk)), poke()),
      end: () => ((ended = true), poke()),
      fail: (error) => ((failure = error), poke()),
    }
    let source: Iterator<string | Uint8Array> | undefined
    const body = reply.body
    if (body === 'fed') seen.fed = fed
    else if (body === undefined || typeof body === 'string' || Array.isArray(body)) {
      const parts = body === undefined ? [] : typeof body === 'string' ? [body] : (body as readonly (string | Uint8Array)[])
      for (const part of parts) fed.push(part)
      fed.end()
    } else source = (body as Iterable<string | Uint8Array>)[Symbol.iterator]()

    let taken = false
    async function* read(): AsyncGenerator<Uint8Array> {
      if (taken) throw new Error('the body was read twice')
      taken = true
      for (;;) {
        if (seen.aborted) throw await aborted.catch((e: unknown) => e)
        if (source) {
          const next = source.next()
          if (next.done) {
            seen.readToEnd = true
            return
          }
          const chunk = bytes(next.value)
          seen.bytesRead += chunk.byteLength
          yield chunk
          continue
        }
        if (chunks.length > 0) {
          const chunk = chunks.shift()!
          seen.bytesRead += chunk.byteLength
          yield chunk
          continue
        }
        if (failure !== undefined) throw failure
        if (ended) {
          seen.readToEnd = true
          return
        }
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted])
      }
    }
    const headers = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
    const pushed = async (onChunk: (chunk: Uint8Array) => void): Promise<void> => {
      for await (const chunk of read()) onChunk(chunk)
    }
    return {
      ...(push ? { read: pushed } : {}),
      status: reply.status ?? 200,
      header: (name) => headers[name.toLowerCase()],
      body: { [Symbol.asyncIterator]: read },
      text: async () => {
        let text = ''
        const decoder = new TextDecoder()
        for await (const chunk of read()) text += decoder.decode(chunk, { stream: true })
        return text + decoder.decode()
      },
    }
  }
  return { transport, requests, request: (n) => requests[n - 1]! }
}

/** A JSON reply (with its content-length, as servers send it). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): FakeReply {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return { status, headers: { 'content-type': 'application/json', 'content-length': String(encoder.encode(text).byteLength), ...headers }, body: text }
}

/** An SSE reply of the given text or chunks. */
export function sse(body: FakeReply['body']): FakeReply {
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, ...(body === undefined ? {} : { body }) }
}

/**
 * `chunk` over and over, as fast as the client reads, up to `maxBytes` in all
 * (then the body ends): a body meant to be endless, bounded so that a client
 * that lost its size limit fails the test instead of reading forever.
 */
export function* repeated(chunk: string, maxBytes = 32 * 1024 * 1024): Generator<string> {
  for (let sent = 0; sent < maxBytes; sent += chunk.length) yield chunk
}

/** A network error with a code, as undici raises them. */
export function networkError(code: string): Error {
  return Object.assign(new Error(`network failure ${code}`), { code })
}

/** A network error as fetch raises them: a TypeError whose cause holds the code. */
export function fetchNetworkError(code: string): Error {
  return new TypeError('fetch failed', { cause: networkError(code) })
}
