import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { lastValueFrom, type Observable } from 'rxjs'
import { createClient, type Client, type ClientOptions, type Transport, type TransportRequest } from '../../src/index.js'
import type { Simulator } from '../../src/sim/index.js'

/** Whether `path` (a client issue path or a simulator `param`) names `field`: the field itself, or a part of it. */
export function names(path: unknown, field: string): boolean {
  return typeof path === 'string' && (path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`))
}

/** Polling as fast as a test wants it: every 1 ms, no growth, no jitter. */
export const EVERY_MS = { initialDelayMs: 1, factor: 1, maxDelayMs: 1, jitter: 0 } as const

/**
 * A transport that records each request and answers every one 418 with an
 * empty body, so an accepted request ends in an `HttpError` right after it
 * was sent (no retries: the client is made with `retry: false`).
 */
export function recordingClient(): { client: Client; sent: TransportRequest[] } {
  const sent: TransportRequest[] = []
  const transport: Transport = async (request) => {
    sent.push(request)
    return {
      status: 418,
      header: (name) => (name.toLowerCase() === 'content-length' ? '0' : undefined),
      body: (async function* () {})(),
      text: async () => '',
    }
  }
  return { client: createClient({ baseUrl: 'https://gateway.invalid', apiKey: 'contract-key', transport, retry: false }), sent }
}

/** A client of the simulator that polls every 1 ms and never retries. */
export function simClient(sim: Simulator, options: Partial<ClientOptions> = {}): Client {
  return createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: false, taskPoll: EVERY_MS, responsePoll: EVERY_MS, ...options })
}

/** Everything an Observable emitted, and how it ended. */
export interface Outcome<T> {
  readonly values: T[]
  readonly error?: unknown
}

/** Runs an Observable to its end, collecting its values and its error. */
export async function outcome<T>(source: Observable<T>): Promise<Outcome<T>> {
  const values: T[] = []
  return new Promise((resolve) => {
    source.subscribe({
      next: (value) => values.push(value),
      error: (error: unknown) => resolve({ values, error }),
      complete: () => resolve({ values }),
    })
  })
}

/** The error an Observable ends in (rejects when it completes instead). */
export async function errorOf(source: Observable<unknown>): Promise<unknown> {
  return lastValueFrom(source).then(
    (value) => {
      throw new Error(`expected an error, got a value and completion: ${JSON.stringify(value)?.slice(0, 200)}`)
    },
    (error: unknown) => error,
  )
}

/** A raw exchange with the simulator, with its token, outside the client. */
export async function raw(sim: Simulator, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sim.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await res.body?.cancel()
    return { status: res.status, json: undefined, text: '' }
  }
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, json, text }
}

/** What a loopback server answers: a status, headers and a body as raw text. */
export interface CannedReply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * A loopback HTTP server on 127.0.0.1 answering every request with the
 * reply `current()` returns at the time. Close it when done.
 */
export async function cannedServer(current: () => CannedReply): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      hits += 1
      const reply = current()
      res.writeHead(reply.status, { 'content-length': Buffer.byteLength(reply.body), ...reply.headers })
      res.end(reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
