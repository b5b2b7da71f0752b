/**
 * The server half of a browser app (Node): {@link createGatewayHandler} holds
 * the gateway key and forwards the page's calls, those its `authorize` admits,
 * to the gateway; {@link nodeListener} and {@link expressMiddleware} mount it.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createGatewayHandler, nodeListener } from 'rxgate/server'
 *
 * const handler = createGatewayHandler({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY!, models: ['gpt-4.1-mini'], authorize: isSignedIn })
 * createServer(nodeListener(handler)).listen(3000)
 * ```
 *
 * @module rxgate/server
 */
// rxgate/server (Node): the server half of a browser app, holding the gateway key.
export { createGatewayHandler, type GatewayHandler } from './handler.js'
export type { AuthorizeResult, GatewayHandlerOptions } from './options.js'
export { nodeListener, type NodeRequestLike } from './node.js'
export { expressMiddleware, type NextFunction } from './express.js'
