import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { SimEnv } from './env.js'
import { applyFaults } from './faults.js'
import { apiError, sendJson, SimHttpError, type Call, type Route, type SimRequestLog } from './http.js'

/** The HTTP server with what tests observe of it. */
export interface SimServer {
  readonly server: Server
  readonly requests: readonly SimRequestLog[]
  readonly openConnections: () => number
  readonly connectionsClosedByClient: () => number
  /** Ends every connection and pending delay; resolves when the server has closed. */
  close(): Promise<void>
}

/**
 * Creates (without listening) the server: CORS on every reply, preflights
 * answered without a token, 404/405 for unknown paths and methods, then
 * for non-public routes the bearer token (401) and the faults, then the
 * route. A handler's `SimHttpError` becomes its JSON reply; errors after
 * the client left or the simulator closed are dropped.
 */
export function createSimServer(env: SimEnv, routes: readonly Route[]): SimServer {
  const requests: Call['log'][] = []
  const sockets = new Set<Socket>()
  const closedByServer = new WeakSet<Socket>()
  const closing = new AbortController()
  let closedByClient = 0
  let closed: Promise<void> | undefined

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const log = { method: req.method ?? '', path: url.pathname, search: url.search, status: 0, aborted: false, at: env.clock.now() }
    requests.push(log)
    const finished = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished && !closedByServer.has(req.socket) && !closing.signal.aborted) log.aborted = true
      finished.abort()
    })
    const signal = AbortSignal.any([finished.signal, closing.signal])
    const destroy = (): void => {
      closedByServer.add(req.socket)
      req.socket.destroy()
    }
    let call: Call = { req, res, url, params: [], signal, log, destroy }
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-expose-headers', 'retry-after, content-range')
    try {
      if (req.method === 'OPTIONS') return preflight(call)
      const { route, params } = resolve(routes, log.method, url.pathname)
      call = { ...call, params }
      if (!route.public) {
        authorize(call, env.settings.apiKey)
        await applyFaults(call, env)
      }
      await route.handle(call)
    } catch (error) {
      if (error instanceof SimHttpError && !res.headersSent) return sendJson(call, error.status, error.body, error.headers)
      if (signal.aborted) return
      if (res.headersSent) return destroy()
      sendJson(call, 500, { error: { message: `Simulator error: ${String(error)}`, type: 'server_error', param: null, code: 'simulator_error' } })
    }
  }

  const server = createServer((req, res) => void handle(req, res))
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.setNoDelay(true)
    let peerLeft = false
    const left = () => void (peerLeft = true)
    socket.on('end', left).on('error', left)
    socket.once('close', () => {
      sockets.delete(socket)
      if (peerLeft && !closedByServer.has(socket) && !closing.signal.aborted) closedByClient += 1
    })
  })

  return {
    server,
    requests,
    openConnections: () => sockets.size,
    connectionsClosedByClient: () => closedByClient,
    close: () =>
      (closed ??= new Promise<void>((done) => {
        closing.abort()
        env.clock.stop()
        server.close(() => done())
        server.closeAllConnections()
      })),
  }
}

function preflight(call: Call): void {
  const asked = call.req.headers['access-control-request-headers'] ?? ''
  const allowed = new Set(['authorization', 'content-type', ...asked.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)])
  call.log.status = 204
  call.res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': [...allowed].join(', '),
    'access-control-max-age': '600',
  })
  call.res.end()
}

function resolve(routes: readonly Route[], method: string, path: string): { route: Route; params: string[] } {
  const allow = new Set<string>()
  for (const route of routes) {
    const match = route.pattern.exec(path)
    if (!match) continue
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params: match.slice(1) }
    allow.add(route.method)
  }
  if (allow.size === 0) throw apiError(404, `Unknown path ${path}.`, 'not_found')
  const methods = [...allow].join(', ')
  throw apiError(405, `Method ${method} is not allowed on ${path}; use ${methods}.`, 'method_not_allowed', { headers: { allow: methods } })
}

function authorize(call: Call, apiKey: string): void {
  const header = call.req.headers.authorization
  const unauthorized = (message: string) => apiError(401, message, 'invalid_api_key', { headers: { 'www-authenticate': 'Bearer' } })
  if (!header) throw unauthorized('Missing bearer token: send the header "Authorization: Bearer <API key>".')
  const [scheme = '', token = ''] = header.split(' ')
  if (scheme.toLowerCase() !== 'bearer' || token !== apiKey) throw unauthorized('Incorrect API key provided: check the bearer token.')
}
