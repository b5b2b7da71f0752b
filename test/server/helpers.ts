import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { expect, onTestFinished } from 'vitest'
import { createGatewayHandler, nodeListener, type GatewayHandlerOptions } from '../../src/server/index.js'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js'

/** The server's gateway key: long and unique, so a leak of it (or of a fragment) cannot pass unseen. */
export const KEY = `sk-server-test-${randomUUID()}`

export const RESPONSES = '/vendors/vendor-a/v1/responses'
export const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
export const TASK_ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'

/** One request as the fake gateway saw it. */
export interface Seen {
  readonly method: string
  /** Path and query. */
  readonly url: string
  readonly headers: IncomingMessage['headers']
  readonly body: string
  /** Resolves when the reply ends: true when the caller went away before it was finished. */
  readonly closed: Promise<boolean>
}

/** A scripted gateway on 127.0.0.1 that records every request (body included); closed when the test ends. */
export async function startUpstream(reply: (seen: Seen, res: ServerResponse) => void | Promise<void> = (_, res) => json(res, 200, { ok: true })) {
  const requests: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const closed = new Promise<boolean>((resolve) => res.on('close', () => resolve(!res.writableFinished)))
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), closed }
      requests.push(seen)
      void Promise.resolve(reply(seen, res)).catch(() => res.destroy())
    })
  })
  const url = await listen(server)
  return { url, requests }
}

/**
 * `options` as given when they have an `authorize`; else with
 * `allowUnauthenticated: true`, for the tests that are about something else
 * (their handler is reached by the test alone, on 127.0.0.1 or in-process).
 */
export function openUnlessAuthorized<T extends Partial<GatewayHandlerOptions>>(options: T): T {
  return options.authorize || options.allowUnauthenticated !== undefined ? options : { ...options, allowUnauthenticated: true }
}

/**
 * `createGatewayHandler` behind `node:http` on 127.0.0.1, closed when the test
 * ends; open to every caller unless `options` has an `authorize`. `base` is
 * what a browser client would use as its `baseUrl`.
 */
export async function startProxy(options: Partial<GatewayHandlerOptions> & Pick<GatewayHandlerOptions, 'baseUrl'>) {
  const handler = createGatewayHandler(openUnlessAuthorized({ apiKey: KEY, onError: () => {}, ...options }))
  const url = await listen(createServer(nodeListener(handler)))
  return { url, base: `${url}${handler.basePath}` }
}

/** The simulator with {@link KEY} as its token, closed when the test ends. */
export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ apiKey: KEY, streamDelayMs: 1, ...options })
  onTestFinished(() => sim.close())
  return sim
}

/** POSTs a JSON body (a string is sent as it is). */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

/** The `error` object of a JSON error reply. */
export async function errorOf(res: Response): Promise<{ message: string; code: string; type: string; issues?: unknown[] }> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  return ((await res.json()) as { error: { message: string; code: string; type: string } }).error
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** A promise and its resolver, to let a scripted gateway go on when the test says so. */
export function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

/** Listens on 127.0.0.1 and closes the server when the test ends; returns its address. */
export async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** One call the handler made through an injected `fetch`. */
export interface FetchCall {
  readonly url: string
  readonly method: string
  readonly headers: Record<string, string>
  readonly body: string | undefined
}

/**
 * A `fetch` for the handler's `fetch` option that answers with `reply` and
 * records each call: the URL and the headers exactly as the handler built them.
 */
export function fakeFetch(reply: (call: FetchCall, init: RequestInit) => Response | Promise<Response> = () => Response.json({ ok: true })) {
  const calls: FetchCall[] = []
  const fetchFn = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), method: init.method ?? 'GET', headers: { ...(init.headers as Record<string, string>) }, body: init.body as string | undefined }
    calls.push(call)
    return reply(call, init)
  }) as typeof globalThis.fetch
  return { fetch: fetchFn, calls }
}

/** A request to the handler, as a browser client would send it to `/api/rxgate`. */
export function call(path: string, init: RequestInit = {}): Request {
  return new Request(`http://localhost/api/rxgate${path}`, init)
}

/** A JSON POST to the handler. */
export function callPost(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

/**
 * A browser that asks the relay at `url` for `/api/rxgate/x` and then reads
 * nothing (its socket paused), and the end of the first `serveNode` call
 * (rejecting if it does): for tests of a relay writing to a slow reader.
 */
export function stalledBrowser(url: string, served: readonly Promise<void>[]): { socket: Socket; ended: Promise<void> } {
  const sent = signal()
  const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
    socket.write('GET /api/rxgate/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    sent.resolve()
  })
  socket.on('error', () => {})
  socket.pause()
  const ended = (async () => {
    await sent.promise
    while (served.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await served[0]
  })()
  return { socket, ended }
}
