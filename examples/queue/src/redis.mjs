import { Redis } from 'ioredis'

/**
 * A Redis connection for BullMQ from `REDIS_URL`: a `redis://` URL, or the
 * path of a unix socket. `maxRetriesPerRequest: null`: a worker waits for
 * Redis to come back instead of failing the command, as BullMQ requires.
 *
 * @example
 * const connection = redisConnection('redis://127.0.0.1:6379')
 */
export function redisConnection(address) {
  const options = { maxRetriesPerRequest: null }
  return address.startsWith('/') ? new Redis({ path: address, ...options }) : new Redis(address, options)
}
