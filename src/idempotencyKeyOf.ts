import { createSha256 } from './download/sha256.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'

/**
 * A stable `Idempotency-Key` derived from a job's identity: the same parts
 * give the same key, in any process, on any machine, at any time; other
 * parts give another. It is a UUID (version 8, "application-defined": the
 * first 122 bits of the SHA-256 of the parts), which gateways that check a
 * key's form accept, and it reveals nothing of the parts.
 *
 * Why derive it rather than pick a random one: a queue delivers a job at
 * least once, and two workers may hold the same job at once (one paused
 * past its lock while another took the job over). A random key saved by
 * each would make two tasks; a derived key is the same in both, so a
 * gateway that honours keys makes one. Pass whatever names the job for
 * good (its queue, its id, when it was enqueued: an id alone may come back
 * after a queue is emptied), but never an attempt or retry count, which
 * would make each retry a new, paid, task. To ask for a new task on purpose
 * (a person decided to render again), add a part that says so.
 *
 * Synchronous (a plain SHA-256, not Web Crypto's Promise), so it fits
 * anywhere. Parts are strings or finite numbers, at least one; anything
 * else is an `InvalidRequestError`. A number counts as its decimal text
 * (`42` and `'42'` are the same part); parts are length-prefixed before
 * hashing, so `('a:b')` and `('a', 'b')` give different keys.
 *
 * @example
 * ```ts
 * import { idempotencyKeyOf } from 'rxgate'
 *
 * console.log(idempotencyKeyOf('renders', '42', 1767225600000))
 * // Output: 9f9a1e4d-9a74-8ed9-b56b-d770112c4de3
 * ```
 */
export function idempotencyKeyOf(...parts: readonly (string | number)[]): string {
  if (parts.length === 0) throw new InvalidRequestError([{ path: 'parts', message: 'must name the job: at least one string or number' }], 'idempotencyKeyOf')
  const hash = createSha256()
  const encoder = new TextEncoder()
  parts.forEach((part, i) => {
    if (!(typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part)))) {
      throw new InvalidRequestError([{ path: `parts[${i}]`, message: `must be a string or a finite number (got ${part === null ? 'null' : typeof part})` }], 'idempotencyKeyOf')
    }
    const bytes = encoder.encode(String(part))
    hash.update(encoder.encode(`${bytes.byteLength}:`))
    hash.update(bytes)
  })
  const hex = hash.hex()
  // Version 8 in the 13th digit, the RFC 9562 variant (10xx) in the 17th.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
