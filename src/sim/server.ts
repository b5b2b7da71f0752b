import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { SimHttpError } from './apiError.js'
import type { Call, MutableLog, Route, SimRequestLog } from './call.js'
import type { SimEnv } from './env.js'
import { applyGatewayFaults } from './gatewayFaults.js'
import { sendJson } from './reply.js'
import { authorize, preflight, resolve } from './routing.js'

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
 * for non-public routes the bearer token (401) and the gateway faults, then
 * the route. A handler's `SimHttpError` becomes its JSON reply; errors after
 * the client left or the simulator closed are dropped.
 */
export function createSimServer(env: SimEnv, routes: readonly Route[], closing: AbortController): SimServer {
  const requests: MutableLog[] = []
  const sockets = new Set<Socket>()
  const closedByServer = new WeakSet<Socket>()
  let closedByClient = 0
  let closed: Promise<void> | undefined

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const key = req.headers['idempotency-key']
    const log: MutableLog = { method: req.method ?? '', path: url.pathname, search: url.search, status: 0, aborted: false, at: env.clock.now(), ...(typeof key === 'string' && key ? { idempotencyKey: key } : {}) }
    const index = requests.push(log) - 1
    const finished = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished && !closedByServer.has(req.socket) && !closing.signal.aborted) log.aborted = true
      finished.abort()
    })
    const signal = AbortSignal.any([finished.signal, closing.signal])
    let call: Call = {
      req,
      res,
      url,
      params: [],
      signal,
      log,
      index,
      destroy() {
        closedByServer.add(req.socket)
        req.socket.destroy()
      },
      note(fault, by = 'faults') {
        const name = by === 'chaos' ? `chaos:${fault}` : fault
        log.fault = log.fault ? `${log.fault}, ${name}` : name
        env.faultLog.push({ request: index, method: log.method, path: log.path, fault, by })
      },
    }
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-expose-headers', 'retry-after, content-range, content-length, accept-ranges')
    try {
      if (req.method === 'OPTIONS') return preflight(call)
      const { route, params } = resolve(routes, log.method, url.pathname)
      call = { ...call, params }
      if (!route.public) {
        authorize(call, env.settings.apiKey)
        if (await applyGatewayFaults(call, env, route)) return
      }
      await route.handle(call)
    } catch (error) {
      if (signal.aborted) return
      if (error instanceof SimHttpError && !res.headersSent) return void (await sendJson(call, error.status, error.body, error.headers).catch(() => {}))
      if (res.headersSent) return call.destroy()
      await sendJson(call, 500, { error: { message: `Simulator error: ${String(error)}`, type: 'server_error', param: null, code: 'simulator_error' } })
    }
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()))
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
