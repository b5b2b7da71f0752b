import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import type { DownloadEvent, DownloadSaved } from '../../src/download/types.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { VirtualClock } from '../helpers/clock.js'
import { collect, observe } from '../helpers/collect.js'
import { startServer, waitFor, within, type TestServer } from '../helpers/server.js'
import { tempDir } from './scratch.js'

const FILE = randomBytes(1_000)
const ETAG = '"v1"'

/**
 * A host of a 1000-byte file that never tells its size: the first answer is
 * a 200 without `Content-Length` that breaks off after 500 bytes; every
 * resume is a chunked 206 `bytes <from>-999/*` that ends cleanly after 200
 * bytes, short of the end it announced, unless `whole(n)` says the n-th
 * request gets all of its range.
 */
async function shortHost(whole: (n: number) => boolean = () => false): Promise<TestServer> {
  const server = await startServer((req, res) => {
    const n = server.requests.indexOf(req) + 1
    const from = Number(/^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''))?.[1] ?? 0)
    if (from === 0) {
      res.writeHead(200, { 'content-type': 'video/mp4', 'accept-ranges': 'bytes', etag: ETAG })
      return void res.write(FILE.subarray(0, 500), () => res.socket?.destroy())
    }
    res.writeHead(206, { 'content-type': 'video/mp4', 'accept-ranges': 'bytes', etag: ETAG, 'content-range': `bytes ${from}-999/*` })
    res.end(FILE.subarray(from, whole(n) ? 1_000 : from + 200))
  })
  return server
}

const saves = (values: DownloadEvent[]) => values.filter((e): e is DownloadSaved => e.type === 'saved')

describe('download$: a 206 that ends before the end its Content-Range announced', () => {
  it('is a body that ended early: never saved as the whole file; with no retry left, a ConnectionError and no file', async () => {
    const server = await shortHost()
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const { values, error } = await collect(download$(`${server.url}/v.mp4?sig=secret`, file, { allowHosts: [server.url], retries: 1 }))
    expect(server.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=500-'])
    expect(saves(values)).toEqual([])
    expect(isConnectionError(error)).toBe(true)
    expect((error as Error).message).toBe('GET /v.mp4: the connection closed in the middle of the reply')
    expect(((error as Error).cause as Error).message).toBe('the body ended early')
    expect(await readdir(dir)).toEqual([])
  })

  it('is resumed from the byte it reached, and the file is saved whole once the rest comes', async () => {
    const server = await shortHost((n) => n === 3)
    const dir = await tempDir()
    const file = join(dir, 'v.mp4')
    const clock = new VirtualClock()
    const o = observe(download$(`${server.url}/v.mp4?sig=secret`, file, { allowHosts: [server.url], retries: 2, scheduler: clock, timeoutMs: 3_600_000 }))
    // The second break in a row waits a delay on the injected clock: time moves until the next request, or the end.
    await waitFor(() => (clock.advance(500), server.requests.length > 2 || o.completed || o.error !== undefined), 3_000, 'the request after the short 206')
    const { values, completed } = await within(o.done, 3_000, 'the resumed download')
    expect(completed).toBe(true)
    expect(server.requests.map((r) => r.headers.range)).toEqual([undefined, 'bytes=500-', 'bytes=700-'])
    expect(saves(values)).toEqual([{ type: 'saved', bytes: 1_000, file, resumed: 2, restarted: 0 }])
    expect((await readFile(file)).equals(FILE)).toBe(true)
  })
})
