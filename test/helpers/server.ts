import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished } from 'vitest'

/** One request as the loopback server saw it. */
export interface SeenRequest {
  readonly method: string
  /** Path and query as sent. */
  readonly url: string
  /** Path without the query. */
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
  /** The body parsed as JSON, or undefined. */
  readonly json: unknown
  /** Set when the client closed the connection before the response was finished. */
  readonly aborted: boolean
  /** Resolves when the client closes the connection before the response was finished. */
  readonly closedEarly: Promise<void>
  /** Resolves when the response ends, with whether it was finished (false: the client closed first). */
  readonly ended: Promise<boolean>
}

export type Handler = (req: SeenRequest, res: http.ServerResponse, raw: http.IncomingMessage) => unknown

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  readonly port: number
  /** Every request received, in order. */
  readonly requests: SeenRequest[]
  /** Resolves with the n-th request (1-based) once it has arrived; fails after `ms`. */
  request(n: number, ms?: number): Promise<SeenRequest>
  close(): Promise<void>
}

/**
 * A loopback HTTP server on 127.0.0.1 and an ephemeral port. It records every
 * request (body included) and whether the client closed the connection before
 * the response was finished. It closes itself (all connections included) when
 * the current test ends.
 */
export async function startServer(handler: Handler, { port: wanted = 0 }: { port?: number } = {}): Promise<TestServer> {
  const requests: SeenRequest[] = []
  const waiters: { n: number; resolve: (r: SeenRequest) => void }[] = []
  const server = http.createServer((raw, res) => {
    const chunks: Buffer[] = []
    raw.on('data', (c: Buffer) => chunks.push(c))
    raw.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = body ? JSON.parse(body) : undefined
      } catch {
        json = undefined
      }
      const url = new URL(raw.url ?? '/', 'http://127.0.0.1')
      let markClosed!: () => void
      const closedEarly = new Promise<void>((resolve) => (markClosed = resolve))
      let markEnded!: (finished: boolean) => void
      const ended = new Promise<boolean>((resolve) => (markEnded = resolve))
      const seen = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: raw.headers,
        body,
        json,
        aborted: false,
        closedEarly,
        ended,
      }
      res.on('close', () => {
        if (!res.writableFinished) {
          seen.aborted = true
          markClosed()
        }
        markEnded(res.writableFinished)
      })
      res.on('error', () => {})
      requests.push(seen)
      for (const w of waiters.filter((w) => w.n <= requests.length)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(requests[w.n - 1]!)
      }
      Promise.resolve(handler(seen, res, raw)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(599)
        res.end(String(err))
      })
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(wanted, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  let closed: Promise<void> | undefined
  const close = (): Promise<void> =>
    (closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }))
  onTestFinished(close)
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    request: (n, ms = 3_000) =>
      requests.length >= n
        ? Promise.resolve(requests[n - 1]!)
        : new Promise<SeenRequest>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`request ${n} never arrived (saw ${requests.length})`)), ms)
            waiters.push({
              n,
              resolve: (r) => {
                clearTimeout(timer)
                resolve(r)
              },
            })
          }),
    close,
  }
}

/** A port on 127.0.0.1 where nothing listens: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Sends a JSON reply. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** Starts a server-sent-events reply. */
export function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  res.flushHeaders()
}

/** Resolves once `condition` holds, checking every 2 ms; fails after `ms`. For socket events that have no event of their own. */
export async function waitFor(condition: () => boolean, ms = 3_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 2))
  }
}

/** `promise`, or a failure naming `what` after `ms`: a hang fails fast instead of running into the test timeout. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)))
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}
