import { defer, Observable, tap, throwError, timeout } from 'rxjs'
import { ConnectionError } from '../errors/ConnectionError.js'
import { HttpError } from '../errors/HttpError.js'
import { TimeoutError } from '../errors/TimeoutError.js'
import { ValidationError } from '../errors/ValidationError.js'
import { backoff } from '../operators/backoff.js'
import { AbortSwitch } from './abort.js'
import type { Client } from './client.js'
import { parseRetryAfter } from './retryAfter.js'
import type { TransportResponse } from './types.js'

/** One call to the gateway. `path` starts with `/` and may carry a query. */
export interface RequestSpec {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: unknown
}

/**
 * One request whose reply is a JSON document: emits the parsed value, then
 * completes. Cold: each subscription sends the request anew; unsubscribing
 * aborts it at any stage. Retried by the gateway's retry policy when the
 * method and failure allow (see {@link isRetryable}), unless `retry` is false
 * because the caller retries by its own budget.
 */
export function requestJson$(client: Client, spec: RequestSpec, { retry = true }: { retry?: boolean } = {}): Observable<unknown> {
  return withPolicy(client, spec, exchange$(client, spec, 'json'), () => retry)
}

/**
 * One request whose reply is streamed: emits the body as decoded text
 * chunks (a multibyte character split across chunks is kept whole), then
 * completes. `timeoutMs` bounds each silence. Only a failure before the first
 * chunk is retried: a retry after that would repeat what was emitted.
 */
export function requestText$(client: Client, spec: RequestSpec): Observable<string> {
  return defer(() => {
    let started = false
    const source = exchange$(client, spec, 'text').pipe(tap(() => (started = true)))
    return withPolicy(client, spec, source, () => !started)
  })
}

/**
 * Whether a failed request may be sent again. Reads are retried on network
 * failures, timeouts, 408, 429 and 5xx. A POST may have created something
 * (a paid task), so it is retried only when the server certainly refused
 * it: 429, 503, or a connection that never reached the server.
 */
export function isRetryable(error: unknown, method: RequestSpec['method']): boolean {
  if (error instanceof HttpError) {
    if (method === 'POST') return error.status === 429 || error.status === 503
    return error.status === 408 || error.status === 429 || error.status >= 500
  }
  if (error instanceof ConnectionError) return method === 'GET' || !error.sent
  if (error instanceof TimeoutError) return method === 'GET'
  return false
}

function withPolicy<T>(client: Client, spec: RequestSpec, source: Observable<T>, retryable: () => boolean): Observable<T> {
  const limited = source.pipe(
    timeout({
      each: client.timeoutMs,
      scheduler: client.scheduler,
      with: () => throwError(() => new TimeoutError(spec.method, pathOnly(spec.path), client.timeoutMs)),
    }),
  )
  if (client.retry === false) return limited
  return limited.pipe(
    backoff({
      ...client.retry,
      scheduler: client.scheduler,
      shouldRetry: (error) => retryable() && isRetryable(error, spec.method),
    }),
  )
}

function exchange$(client: Client, spec: RequestSpec, mode: 'json'): Observable<unknown>
function exchange$(client: Client, spec: RequestSpec, mode: 'text'): Observable<string>
function exchange$(client: Client, spec: RequestSpec, mode: 'json' | 'text'): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const abort = new AbortSwitch()
    const { method } = spec
    const path = pathOnly(spec.path)
    const headers: Record<string, string> = { ...client.headers, accept: mode === 'json' ? 'application/json' : 'text/event-stream' }
    let body: string | undefined
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(spec.body)
    }

    let finished = false
    const run = async (): Promise<void> => {
      let res: TransportResponse
      try {
        res = await client.transport({ method, url: client.baseUrl + spec.path, headers, body, signal: abort })
      } catch (err) {
        throw connectionError(method, path, err, false)
      }
      if (res.status < 200 || res.status > 299) {
        const text = await res.text().catch(() => '')
        throw new HttpError({
          method,
          path,
          status: res.status,
          body: text,
          retryAfterMs: parseRetryAfterMs(res),
        })
      }
      if (mode === 'json') {
        subscriber.next(parseJson(await readAll(res, method, path), path))
      } else {
        const decoder = new TextDecoder()
        try {
          for await (const chunk of res.body) {
            if (subscriber.closed) return
            const text = decoder.decode(chunk, { stream: true })
            if (text) subscriber.next(text)
          }
        } catch (err) {
          throw connectionError(method, path, err, true)
        }
        const rest = decoder.decode()
        if (rest) subscriber.next(rest)
      }
      finished = true
      subscriber.complete()
    }

    run().catch((err: unknown) => {
      finished = true
      if (!subscriber.closed) subscriber.error(err)
    })
    // Only an unfinished exchange is aborted: aborting costs an error object
    // and wakes the transport's listeners for nothing.
    return () => {
      if (!finished) abort.abort()
    }
  })
}

async function readAll(res: TransportResponse, method: string, path: string): Promise<string> {
  try {
    return await res.text()
  } catch (err) {
    throw connectionError(method, path, err, true)
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new ValidationError(`reply to ${path}`, [{ path: '', message: 'is not JSON' }], text)
  }
}

/** `retry-after-ms` (sent by some OpenAI-compatible servers) when valid, else `Retry-After`. */
function parseRetryAfterMs(res: TransportResponse): number | undefined {
  const ms = Number(res.header('retry-after-ms') ?? Number.NaN)
  return Number.isFinite(ms) && ms >= 0 ? ms : parseRetryAfter(res.header('retry-after'))
}

// Codes of failures that happen before a single byte of the request left.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH'])

function connectionError(method: string, path: string, err: unknown, inBody: boolean): ConnectionError {
  const code = errorCode(err)
  const sent = inBody || !code || !NOT_SENT.has(code)
  const detail = inBody
    ? `the connection closed in the middle of the reply${code ? ` (${code})` : ''}`
    : `could not reach the gateway${code ? ` (${code})` : ''}; check baseUrl and the network`
  return new ConnectionError(method, path, detail, sent, err)
}

/** The first error code along the cause chain (fetch wraps undici's error in a TypeError). */
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return undefined
}

/** The path without its query, for messages: queries may hold ids, never keys, but stay out of logs. */
export function pathOnly(path: string): string {
  const q = path.indexOf('?')
  return q === -1 ? path : path.slice(0, q)
}
