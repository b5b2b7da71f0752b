import { AsyncResource } from 'node:async_hooks'
import { Agent, Dispatcher, errors } from 'undici'
import type { AbortSignalLike } from './abort.js'
import type { Transport, TransportResponse } from './types.js'
import { forOlderDispatchers } from './undiciOlderHandler.js'

/** Options of the Node transport. */
export interface UndiciTransportOptions {
  /** Most connections open at once for JSON requests (further ones wait for one). Streams are not counted. Default 128. */
  readonly maxConnections?: number | undefined
  /** An undici dispatcher (`Agent`, `Pool`, `ProxyAgent`, `MockAgent`) to send everything through instead. */
  readonly dispatcher?: Dispatcher | undefined
}

/** Connections for JSON requests, by default: enough to keep thousands of polls moving, few enough to stay cheap. */
const JSON_CONNECTIONS = 128

/** How long an idle pooled socket is kept for the next request. */
const KEEP_ALIVE_MS = 10_000

/** Bytes a reply holds unread before the socket is paused, when it is read by pulling (`body`) or not read yet. */
const HIGH_WATER = 64 * 1024

/**
 * The Node transport: undici's dispatcher over pooled keep-alive
 * connections, several times faster than the global \`fetch\`. Two pools:
 * JSON requests share at most `maxConnections` connections, so 10,000 task
 * polls due at once do not open 10,000 sockets; streams have a pool of
 * their own with no limit, so a long-lived stream never makes another wait.
 * Idle pooled sockets do not keep the process alive.
 *
 * Each request is given to the dispatcher with a handler of its own
 * ({@link UndiciReply}, on undici's current handler API: `onRequestStart`
 * to `onResponseEnd`, with abort, pause and resume through its controller)
 * rather than through undici's `request`, which makes a Node `Readable` for
 * every body: a reply's bytes go straight to whoever reads them, with or
 * without a turn of the event loop per chunk.
 */
export function undiciTransport({ maxConnections = JSON_CONNECTIONS, dispatcher }: UndiciTransportOptions = {}): Transport {
  const json = dispatcher ?? new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connections: maxConnections })
  let streams: Dispatcher | undefined = dispatcher
  // One of another undici (Node's own, behind its fetch) may be undici 6, which knows only the older handler hooks.
  const older = dispatcher !== undefined && !(dispatcher instanceof Dispatcher)
  return (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      // Aborted already: nothing is sent (a request aborted in undici's queue costs the connection it is given).
      if (request.signal.aborted) return reject(abortError(request.signal.reason))
      // Made on first use: an app that never streams holds no second pool.
      const agent = request.stream ? (streams ??= new Agent({ keepAliveTimeout: KEEP_ALIVE_MS })) : json
      const { origin, pathname, search } = new URL(request.url)
      const { method, headers, body } = request
      const reply = new UndiciReply(request.signal, resolve, reject)
      try {
        agent.dispatch({ origin, path: pathname + search, method, headers, body }, older ? forOlderDispatchers(reply) : reply)
      } catch (error) {
        // A dispatcher (or an interceptor composed into it) that throws instead of calling onResponseError.
        reply.onResponseError(undefined, error)
      }
    })
}

const decoder = new TextDecoder()

/** The reply's headers as undici's handler API gives them (its `IncomingHttpHeaders`). */
type ReplyHeaders = Readonly<Record<string, string | readonly string[] | undefined>>

const NO_HEADERS: ReplyHeaders = {}

/** How the reply's body is being read: not yet, gathered as text, pushed to a callback, or pulled by an iterator. */
type Reader =
  | { readonly kind: 'text'; readonly limit: number; readonly settle: (result: { text: string; whole: boolean }) => void; readonly fail: (error: unknown) => void }
  | { readonly kind: 'push'; readonly onChunk: (chunk: Uint8Array) => void; readonly settle: () => void; readonly fail: (error: unknown) => void }
  | { readonly kind: 'pull'; wake: (() => void) | undefined }

/**
 * One exchange, as undici's dispatch handler and as the {@link TransportResponse}
 * it resolves with once the status and headers are in. The body's chunks
 * are held until it is read, and the socket is paused while more than
 * 64 KB wait unread (the only way an unread body holds memory). The signal
 * is heard until the reader has had the whole body: an abort fails a body
 * that has arrived but is not read yet.
 *
 * A pushed chunk, and the cut of a text read at its limit, happen inside
 * undici's callback for the bytes, as they arrive: a reader must not start
 * reading another reply from there (sse$ only parses and emits).
 */
class UndiciReply implements Dispatcher.DispatchHandler, TransportResponse {
  /** 0 until the reply's status and headers are in. */
  status = 0
  private given: ReplyHeaders = NO_HEADERS
  private headers: Record<string, string> | undefined
  /** undici's handle on the request, from its start: to abort it. */
  private controller: Dispatcher.DispatchController | undefined
  /** The controller this reply paused, until it resumes it. */
  private paused: Dispatcher.DispatchController | undefined
  private readonly chunks: Buffer[] = []
  private bytes = 0
  private ended = false
  private error: unknown = undefined
  private reader: Reader | undefined

  constructor(
    private readonly signal: AbortSignalLike,
    private readonly resolve: (reply: TransportResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    signal.addEventListener('abort', this.onAbort)
  }

  /** Aborted before the reply: rejects at once, even while the request still waits for a connection; after: fails the body. */
  private readonly onAbort = (): void => {
    // Nothing more is wanted: what is held is dropped, not handed on before the failure.
    this.chunks.length = 0
    this.bytes = 0
    // After undici's end the abort does nothing (undici ignores it): only the held body fails.
    this.stop(this.signal.reason)
  }

  // The dispatch handler, called by undici.

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Called again for a request retried on another connection: the latest controller is the live one.
    if (this.signal.aborted) controller.abort(abortError(this.signal.reason))
    else this.controller = controller
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: ReplyHeaders): void {
    // 1xx (100 Continue, 103 Early Hints): the reply is still to come.
    if (status < 200) return
    this.status = status
    this.given = headers
    this.resolve(this)
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // Given up (aborted, cut at its limit): the bytes still in flight are dropped.
    if (this.error !== undefined) return
    const reader = this.reader
    if (reader?.kind === 'push') {
      try {
        reader.onChunk(chunk)
      } catch (error) {
        this.stop(error)
      }
      return
    }
    this.chunks.push(chunk)
    this.bytes += chunk.byteLength
    if (reader?.kind === 'text') {
      if (this.bytes > reader.limit) {
        reader.settle({ text: this.take(reader.limit), whole: false })
        this.stop(undefined)
      }
      return
    }
    if (reader?.kind === 'pull') reader.wake?.()
    if (this.bytes >= HIGH_WATER) {
      this.paused = controller
      controller.pause()
    }
  }

  onResponseEnd(): void {
    this.ended = true
    const reader = this.reader
    if (reader?.kind === 'pull') return reader.wake?.()
    if (!reader) return
    this.release()
    if (reader.kind === 'text') reader.settle({ text: this.take(this.bytes), whole: true })
    else reader.settle()
  }

  /** undici gives no controller when the dispatch fails before the request starts. */
  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: unknown): void {
    if (!this.ended) this.fail(error)
  }

  /** The exchange failed (undici's error, an abort, a stop): the request's promise or its reader learns it, once. */
  private fail(error: unknown): void {
    if (this.error !== undefined) return
    this.error = error
    this.release()
    if (this.status === 0) return this.reject(error)
    const reader = this.reader
    if (reader?.kind === 'pull') reader.wake?.()
    else reader?.fail(error)
  }

  /** The reader has had the whole body, or it failed: the signal has nothing more to abort. */
  private release(): void {
    this.signal.removeEventListener('abort', this.onAbort)
  }

  // The reply, read by the library.

  header(name: string): string | undefined {
    return (this.headers ??= lowerCased(this.given))[name]
  }

  text(): Promise<string> {
    return new Promise((settle, fail) => this.gather(Number.POSITIVE_INFINITY, ({ text }) => settle(text), fail))
  }

  textUpTo(limit: number): Promise<{ text: string; whole: boolean }> {
    return new Promise((settle, fail) => this.gather(limit, settle, fail))
  }

  /** Reads the body as text, at most `limit` bytes (past them the rest is given up). */
  private gather(limit: number, settle: (result: { text: string; whole: boolean }) => void, fail: (error: unknown) => void): void {
    if (this.bytes > limit) {
      settle({ text: this.take(limit), whole: false })
      return this.stop(undefined)
    }
    if (this.error !== undefined) return fail(this.error)
    if (this.ended) {
      this.release()
      return settle({ text: this.take(this.bytes), whole: true })
    }
    this.reader = { kind: 'text', limit, settle, fail }
    this.flow()
  }

  /**
   * Hands each chunk to `onChunk` as it arrives, from the socket's callback (in
   * the async context of the caller, not of the socket's first request);
   * resolves at the body's end, rejects if it fails or is aborted. The caller
   * stops reading by aborting the request's signal.
   */
  read(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    return new Promise((settle, fail) => {
      // Not AsyncResource.bind: on Node 20 it builds a deprecation wrapper for
      // every bound function, which cost more than the rest of a stream's start.
      const scope = new AsyncResource('rxgate.read')
      const deliver = (chunk: Uint8Array): void => scope.runInAsyncScope(onChunk, undefined, chunk)
      const held = this.chunks.splice(0)
      this.bytes = 0
      this.reader = { kind: 'push', onChunk: deliver, settle, fail }
      try {
        for (const chunk of held) deliver(chunk)
      } catch (error) {
        this.stop(error)
      }
      if (this.error !== undefined) return fail(this.error)
      if (this.ended) {
        this.release()
        return settle()
      }
      this.flow()
    })
  }

  /** The body pulled chunk by chunk: the socket is paused while 64 KB wait unread. Stopping early aborts the request. */
  get body(): AsyncIterable<Uint8Array> {
    return { [Symbol.asyncIterator]: () => this.iterate() }
  }

  private iterate(): AsyncIterator<Uint8Array> {
    const reader: Reader = { kind: 'pull', wake: undefined }
    this.reader = reader
    const next = (): Promise<IteratorResult<Uint8Array>> => {
      const chunk = this.chunks.shift()
      if (chunk) {
        this.bytes -= chunk.byteLength
        if (this.bytes < HIGH_WATER) this.flow()
        return Promise.resolve({ done: false, value: chunk })
      }
      if (this.error !== undefined) return Promise.reject(this.error)
      if (this.ended) {
        this.release()
        return Promise.resolve({ done: true, value: undefined })
      }
      this.flow()
      return new Promise<void>((wake) => (reader.wake = wake)).then(() => {
        reader.wake = undefined
        return next()
      })
    }
    return {
      next,
      return: () => {
        if (this.ended) this.release()
        else this.stop(undefined)
        return Promise.resolve({ done: true, value: undefined })
      },
    }
  }

  /** Takes the first `bytes` held bytes as text. */
  private take(bytes: number): string {
    const whole = Buffer.concat(this.chunks, this.bytes)
    this.chunks.length = 0
    this.bytes = 0
    return decoder.decode(whole.subarray(0, bytes))
  }

  /** Lets a socket this reply paused go on (one paused by a composed handler is that handler's to resume). */
  private flow(): void {
    const paused = this.paused
    if (!paused) return
    this.paused = undefined
    paused.resume()
  }

  /** Gives up the rest of the body, for `why`: the request is aborted and the connection closed. */
  private stop(why: unknown): void {
    const reason = abortError(why)
    this.controller?.abort(reason)
    this.fail(reason)
  }
}

/** What an abort fails with: its reason when that is an error (a timeout, a reader's throw), else undici's `RequestAbortedError`. */
function abortError(why: unknown): Error {
  return why instanceof Error ? why : new errors.RequestAbortedError()
}

/**
 * The reply's headers as an object of lower-case names, a repeated header's
 * values joined with `, `. undici gives names in lower case and a repeated
 * header as a list, but a handler composed into the dispatcher may pass
 * names as written, so they are lowered here once.
 */
function lowerCased(given: ReplyHeaders): Record<string, string> {
  const headers: Record<string, string> = Object.create(null)
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    const text = Array.isArray(value) ? value.join(', ') : String(value)
    const before = headers[key]
    headers[key] = before === undefined ? text : `${before}, ${text}`
  }
  return headers
}
