import { rm } from 'node:fs/promises'
import { download$ } from 'rxgate'
import { concatMap, from, of } from 'rxjs'
import { hashFile } from './hashFile.mjs'
import { slowFetch } from './slowLink.mjs'

/**
 * Downloads a result URL to `file` with `download$`, keeping its partial
 * file (`keepPartial`): a transfer that breaks is resumed with `Range`, and
 * `<file>.part`, left by a worker that died or was stopped, is continued by
 * the next one. Emits download$'s `progress` events, then
 * `{ type: 'saved', file, bytes, sha256, resumedFrom }`: `sha256` is
 * computed by download$ over the bytes as they were written, and checked
 * against the file read back from disk; `resumedFrom` is how many bytes came
 * from a dead worker's partial file. Unsubscribing stops the transfer and
 * keeps the partial file to resume from; the final name only ever holds a
 * whole file.
 *
 * `slowLinkMs` (tests only) delivers bodies in 512-byte pieces that far
 * apart, so that a kill can land in the middle of a download.
 *
 * @example
 * saveResult$(completed.urls[0], 'results/42.mp4', { expiresAt: completed.expiresAt }).subscribe(console.log)
 */
export function saveResult$(url, file, { expiresAt, allowHosts = [], slowLinkMs = 0 } = {}) {
  const paced = slowLinkMs > 0 ? { fetch: slowFetch(slowLinkMs) } : {}
  return download$(url, file, { expiresAt, allowHosts, keepPartial: true, sha256: true, ...paced }).pipe(
    concatMap((event) => (event.type === 'progress' ? of(event) : from(readBack(event)))),
  )
}

/** Reads the saved file back: a file that is not what was written (two workers on one job, a disk fault) is removed and the attempt fails. */
async function readBack(saved) {
  const onDisk = await hashFile(saved.file)
  if (onDisk.sha256 !== saved.sha256 || onDisk.bytes !== saved.bytes) {
    await rm(saved.file, { force: true })
    throw new Error(`${saved.file} does not hold the bytes downloaded (sha256 ${onDisk.sha256}, expected ${saved.sha256}); removed, to be downloaded again`)
  }
  return { type: 'saved', file: saved.file, bytes: saved.bytes, sha256: saved.sha256, resumedFrom: saved.fromPartial ?? 0 }
}
