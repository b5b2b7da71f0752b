// rxgate/server (Node): the server half of a browser app, holding the gateway key.
export { createGatewayHandler, type GatewayHandler } from './handler.js'
export type { AuthorizeResult, GatewayHandlerOptions } from './options.js'
export { nodeListener, type NodeRequestLike } from './node.js'
export { expressMiddleware, type NextFunction } from './express.js'
