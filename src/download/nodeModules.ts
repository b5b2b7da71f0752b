import { InvalidRequestError } from '../errors/InvalidRequestError.js'

/**
 * Node's file system and path modules, taken at run time rather than
 * imported: nothing reachable from the main entry imports a `node:` module,
 * so a bundler can build it for any platform (a browser gets the error).
 *
 * @example
 * ```ts
 * const { path } = nodeModules()
 * path.resolve('out')
 * ```
 */
export function nodeModules(): { fs: typeof import('node:fs/promises'); path: typeof import('node:path') } {
  const get = (globalThis as { process?: { getBuiltinModule?: NodeJS.Process['getBuiltinModule'] } }).process?.getBuiltinModule
  if (!get) throw new InvalidRequestError([{ path: 'target', message: 'a file path needs Node 20.16 or later; elsewhere pass { blob: true } or a stream' }], 'download target')
  return { fs: get('node:fs/promises'), path: get('node:path') }
}
