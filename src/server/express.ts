import type { ServerResponse } from 'node:http'
import type { GatewayHandler } from './handler.js'
import { serveNode, type NodeRequestLike } from './node.js'

/** Express's `next`, written out so that Express need not be installed to use (or type) this adapter. */
export type NextFunction = (error?: unknown) => void

/**
 * Adapts a fetch-style handler to Express (4 or 5) and Connect-style
 * servers. Requests outside the handler's `basePath` go on to `next()`, so
 * it can be mounted at the root or at the base path. Typed by shape: rxgate
 * does not depend on Express. A body already parsed by `express.json()` is
 * forwarded as parsed.
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { createGatewayHandler, expressMiddleware } from 'rxgate/server'
 * import { sessions } from './sessions.js' // the app's own session store
 *
 * const app = express()
 * const gateway = createGatewayHandler({
 *   baseUrl: process.env.GATEWAY_BASE_URL!,
 *   apiKey: process.env.GATEWAY_API_KEY!,
 *   authorize: async (request) => (await sessions.verify(request.headers.get('cookie'))) !== undefined,
 * })
 * app.use(expressMiddleware(gateway))
 * app.listen(4000)
 * ```
 */
export function expressMiddleware(handler: GatewayHandler): (req: NodeRequestLike, res: ServerResponse, next: NextFunction) => void {
  return (req, res, next) => {
    const path = (req.originalUrl ?? req.url ?? '/').split('?')[0]!
    if (!path.startsWith(`${handler.basePath}/`)) return next()
    serveNode(handler, req, res).catch((error: unknown) => (res.headersSent ? res.destroy() : next(error)))
  }
}
