import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { Observable } from 'rxjs'

/**
 * Downloads a result URL to `file`, then emits the file's size in bytes.
 * Result URLs are signed, so no credentials are sent with them (the API key
 * never leaves for another host). Unsubscribing aborts the download and
 * removes the partial file.
 */
export function download$(url: string, file: string): Observable<number> {
  return new Observable<number>((subscriber) => {
    const controller = new AbortController()
    const { signal } = controller
    const run = async () => {
      const res = await fetch(url, { signal, redirect: 'follow' })
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel()
        throw new Error(`GET ${new URL(url).pathname} answered ${res.status}: the result URL may have expired`)
      }
      await mkdir(dirname(file), { recursive: true })
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file), { signal })
      subscriber.next((await stat(file)).size)
      subscriber.complete()
    }
    run().catch(async (err: unknown) => {
      await rm(file, { force: true })
      if (!subscriber.closed) subscriber.error(err)
    })
    return () => controller.abort()
  })
}
