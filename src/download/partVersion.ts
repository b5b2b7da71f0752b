import type { FileHandle } from 'node:fs/promises'
import type { PartVersion } from './sinkTypes.js'

type Fs = typeof import('node:fs/promises')

/** What `<file>.part.json` holds: whose bytes `<file>.part` holds. */
interface Saved {
  /** The URL's origin and path: its query (the signature) changes from one signing to the next, and stays off the disk. */
  readonly source: string
  readonly validator: string
  readonly version: string
  readonly total?: number
}

/** The URL without its query or fragment: the same file, however it was signed. */
function sourceOf(url: string): string {
  const { origin, pathname } = new URL(url)
  return origin + pathname
}

/**
 * The version of the bytes in `<file>.part`, when `<file>.part.json` names
 * one for this URL; undefined when it is missing, names another URL, or is
 * torn (a process that died while writing it): then the part is not trusted.
 *
 * @example
 * ```ts
 * await readPartVersion(fs, '/out/kite.mp4', url) // { validator: '"abc"', version: '"abc"\n', total: 2899 }
 * ```
 */
export async function readPartVersion(fs: Fs, file: string, url: string): Promise<(PartVersion & { readonly validator: string }) | undefined> {
  let saved: Partial<Saved>
  try {
    saved = JSON.parse(await fs.readFile(`${file}.part.json`, 'utf8')) as Partial<Saved>
  } catch {
    return undefined
  }
  const total = saved.total
  if (saved.source !== sourceOf(url) || typeof saved.validator !== 'string' || typeof saved.version !== 'string') return undefined
  if (total !== undefined && !(Number.isSafeInteger(total) && total > 0)) return undefined
  return { validator: saved.validator, version: saved.version, total }
}

/**
 * Records the version of the bytes about to be written to `<file>.part`, or
 * removes the record (`undefined`: a version that cannot be continued, or a
 * part begun clean). Written in place: a torn file reads as no version.
 *
 * @example
 * ```ts
 * await writePartVersion(fs, '/out/kite.mp4', url, { validator: '"abc"', version: '"abc"\n', total: 2899 })
 * ```
 */
export async function writePartVersion(fs: Fs, file: string, url: string, version: PartVersion | undefined): Promise<void> {
  const path = `${file}.part.json`
  if (version?.validator === undefined) return fs.rm(path, { force: true })
  const saved: Saved = { source: sourceOf(url), validator: version.validator, version: version.version, ...(version.total === undefined ? {} : { total: version.total }) }
  // O_NOFOLLOW: a link planted under this name is not written through.
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW = 0 } = fs.constants
  const handle = await fs.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
  try {
    await handle.writeFile(JSON.stringify(saved))
  } finally {
    await handle.close()
  }
}

/** The first `length` bytes of an open part file, in pieces of at most 64 KB; fails if the file is shorter. */
export async function* readPart(handle: FileHandle, length: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < length; ) {
    const buffer = new Uint8Array(Math.min(65_536, length - at))
    const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, at)
    if (bytesRead === 0) throw new Error(`the partial file is shorter than the ${length} bytes it held when opened`)
    at += bytesRead
    yield buffer.subarray(0, bytesRead)
  }
}
