import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { randomBytes } from 'node:crypto'
import { of } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import { saveResults } from '../../src/download/saveResults.js'
import type { DownloadEvent, DownloadOptions, DownloadSaved } from '../../src/download/types.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { isHttpError } from '../../src/errors/HttpError.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isResultExpiredError } from '../../src/errors/ResultExpiredError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { VirtualClock } from '../helpers/clock.js'
import { collect, observe, type Outcome } from '../helpers/collect.js'
import { startServer } from '../helpers/server.js'
import { fileHost, type FileHost } from '../download/fileHost.js'
import { filesLeft } from '../helpers/dir.js'

// The disk and download boundary: every server here lies or misbehaves, on 127.0.0.1.

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-hostile-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** What a user passes to reach a file host on this machine. */
const local = (host: FileHost) => ({ allowHosts: [host.server.url] }) satisfies DownloadOptions

/** Runs a download to its end on a virtual clock, so the waits between attempts take no real time. */
async function drive<T>(source: Parameters<typeof observe<T>>[0], clock: VirtualClock): Promise<Outcome<T>> {
  const o = observe(source)
  const end = Date.now() + 5_000
  while (!o.completed && o.error === undefined && Date.now() < end) {
    await clock.run(10_000)
    await new Promise((r) => setTimeout(r, 5))
  }
  return o
}

const savedOf = (values: DownloadEvent[]) => values.find((e): e is DownloadSaved => e.type === 'saved')

describe('a file that changes during a resumed download is never spliced', () => {
  it('a host that ignores If-Range and answers 206 with a new ETag: the file starts over and is the new version whole', async () => {
    const next = randomBytes(200_000)
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 100_000 : undefined), version: (n) => (n > 1 ? next : undefined), ignoreIfRange: true })
    const dir = await scratch()
    const clock = new VirtualClock()
    const { values, completed } = await drive(download$(host.url, join(dir, 'v.mp4'), { ...local(host), scheduler: clock }), clock)
    expect(completed).toBe(true)
    expect(host.requests.map((r) => r.headers.range)).toEqual([undefined, expect.stringMatching(/^bytes=\d+-$/), undefined])
    expect(savedOf(values)).toMatchObject({ resumed: 0, restarted: 1, bytes: 200_000 })
    const file = await readFile(join(dir, 'v.mp4'))
    expect(file.equals(next), 'the file is the new version, not old bytes followed by new ones').toBe(true)
  })

  it('to a Writable, which cannot be rewound, the download fails instead', async () => {
    const next = randomBytes(200_000)
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 100_000 : undefined), version: (n) => (n > 1 ? next : undefined), ignoreIfRange: true })
    const sink = new PassThrough()
    const chunks: Buffer[] = []
    sink.on('data', (c: Buffer) => chunks.push(c))
    const { error } = await collect(download$(host.url, sink, local(host)))
    expect((error as Error).message).toMatch(/cannot be rewound/)
    const got = Buffer.concat(chunks)
    expect(got.equals(host.bytes.subarray(0, got.length)), 'only bytes of the first version were written').toBe(true)
  })

  it('a host that gives no validator is never asked for the rest: a break starts over from byte 0', async () => {
    const host = await fileHost({ etag: false, dropAt: (n) => (n === 1 ? 100_000 : undefined) })
    const dir = await scratch()
    const { values } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(host.requests.map((r) => r.headers.range)).toEqual([undefined, undefined])
    expect(savedOf(values)).toMatchObject({ resumed: 0, restarted: 1 })
    expect((await readFile(join(dir, 'v.mp4'))).equals(host.bytes)).toBe(true)
  })
})

describe('a host that sends more than it announced', () => {
  it('a 206 longer than its Content-Range fails, and leaves no file under any name', async () => {
    const host = await fileHost({ dropAt: (n) => (n === 1 ? 100_000 : undefined), overrun: (n) => (n === 2 ? 150_000 : undefined) })
    const dir = await scratch()
    const { error, values } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect((error as Error).message).toMatch(/sent more than the 200000 bytes it announced/)
    expect(savedOf(values)).toBeUndefined()
    expect(await filesLeft(dir)).toEqual([])
  })
})

describe('saveResults never writes outside its folder', () => {
  it.each(['../../x', '../escaped', '/tmp/abs', 'sub/../../x'])('task id %j: InvalidRequestError, no request, nothing written anywhere', async (taskId) => {
    const host = await fileHost()
    const root = await scratch()
    const done: TaskEvent = { type: 'completed', taskId, urls: [host.url], taskInfo: {} as never, reply: {} as never }
    const { error } = await collect(of(done).pipe(saveResults(join(root, 'a', 'b', 'out'), local(host))))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(host.requests).toHaveLength(0)
    expect(await readdir(root)).toEqual([])
  })
})

describe('a signed URL that expired', () => {
  it('a 403 whose body says "Request has expired" is ResultExpiredError, asked once, no file', async () => {
    const body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><X-Amz-Expires>3600</X-Amz-Expires></Error>'
    const host = await fileHost({ status: () => 403, statusBody: () => body })
    const dir = await scratch()
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4'), local(host)))
    expect(isResultExpiredError(error)).toBe(true)
    expect(error).toMatchObject({ requested: true, status: 403, path: '/files/result.mp4' })
    expect(host.requests).toHaveLength(1)
    expect(await readdir(dir)).toEqual([])
  })
})

describe('signatures never reach an error', () => {
  it('a 404 that echoes the signed URL and its signature: the HttpError shows neither the query nor the signature', async () => {
    const secret = 'f00dfacecafe1234deadbeef'
    const server = await startServer((req, res) => {
      res.writeHead(404, { 'content-type': 'application/xml' })
      res.end(`<Error><Code>NoSuchKey</Code><Message>No such key ${req.url}; X-Amz-Signature=${secret} sig=${secret}</Message></Error>`)
    })
    const url = `${server.url}/files/v.mp4?X-Amz-Signature=${secret}&sig=${secret}`
    const { error } = await collect(download$(url, { blob: true }, { allowHosts: [server.url] }))
    expect(isHttpError(error) && error.status).toBe(404)
    const shown = `${(error as Error).message}\n${(error as Error).stack}\n${JSON.stringify(error)}`
    expect(shown).toContain('/files/v.mp4')
    expect(shown).not.toContain(secret)
    expect(shown).not.toContain(secret.slice(0, 8))
  })
})

describe('retries is an exact cap', () => {
  it('a host that always cuts the transfer gets retries + 1 requests, never more', async () => {
    const host = await fileHost({ dropAt: () => 10_000 })
    const dir = await scratch()
    const clock = new VirtualClock()
    const { error } = await drive(download$(host.url, join(dir, 'v.mp4'), { ...local(host), retries: 2, scheduler: clock }), clock)
    expect(isConnectionError(error)).toBe(true)
    expect(host.requests).toHaveLength(3)
    expect(host.requests.slice(1).map((r) => r.headers.range)).toEqual(['bytes=10000-', 'bytes=20000-'])
    expect(await filesLeft(dir)).toEqual([])
  })
})

describe('the outbound guard', () => {
  it('by default a download from 127.0.0.1 is refused: InvalidRequestError, nothing reaches the host, no file', async () => {
    const host = await fileHost()
    const dir = await scratch()
    const { error } = await collect(download$(host.url, join(dir, 'v.mp4')))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(error).toMatchObject({ issues: [expect.objectContaining({ path: 'url' })] })
    expect(host.requests).toHaveLength(0)
    expect(await readdir(dir)).toEqual([])
  })

  it('a redirect from an allowed host to an internal one is refused, once, with no retry and no file', async () => {
    const internal = await fileHost()
    const front = await startServer((_req, res) => {
      res.writeHead(302, { location: internal.url })
      res.end()
    })
    const dir = await scratch()
    const { error } = await collect(download$(`${front.url}/files/v.mp4?sig=x`, join(dir, 'v.mp4'), { allowHosts: [front.url] }))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(internal.requests).toHaveLength(0)
    expect(front.requests).toHaveLength(1)
    expect(await readdir(dir)).toEqual([])
  })

  it('allowPrivateNetwork lets a download reach any address', async () => {
    const host = await fileHost()
    const { completed } = await collect(download$(host.url, { blob: true }, { allowPrivateNetwork: true }))
    expect(completed).toBe(true)
  })
})
