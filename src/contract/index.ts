export * from './paths.js'
export * from './limits.js'
export * from './status.js'
export * from './endpoint.js'
