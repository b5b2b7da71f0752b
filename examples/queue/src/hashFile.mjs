import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/**
 * The size and sha256 of a file, read as a stream (videos run to hundreds of MB).
 *
 * @example
 * const { bytes, sha256 } = await hashFile('results/42.mp4')
 */
export async function hashFile(file) {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk)
    bytes += chunk.byteLength
  }
  return { bytes, sha256: hash.digest('hex') }
}
