import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asyncScheduler, firstValueFrom, lastValueFrom, of, type SchedulerLike } from 'rxjs'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { createClient } from '../../src/client.js'
import { saveResults, type SaveResultsEvent } from '../../src/download/saveResults.js'
import { endpoints } from '../../src/endpoints.js'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isResultExpiredError } from '../../src/errors/ResultExpiredError.js'
import { startSimulator, type Simulator } from '../../src/sim/index.js'
import { createTask$, task$, textToVideo$ } from '../../src/tasks$.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { collect, observe } from '../helpers/collect.js'
import { fakeGateway } from '../helpers/fakeTransport.js'
import { waitFor } from '../helpers/server.js'

const FROZEN = { pendingMs: 30_000, processingMs: 150_000 } as const
const HOUR = 60 * 60 * 1000

async function setup(): Promise<{ sim: Simulator; client: ReturnType<typeof createClient>; dir: string }> {
  const sim = await startSimulator({ timeScale: FROZEN })
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-save-'))
  onTestFinished(async () => {
    await sim.close()
    await rm(dir, { recursive: true, force: true })
  })
  return { sim, client: createClient({ baseUrl: sim.url, apiKey: sim.apiKey }), dir }
}

/** The bytes the simulator serves at `url`, fetched plainly. */
async function bytesAt(url: string): Promise<Buffer> {
  return Buffer.from(await (await fetch(url)).arrayBuffer())
}

const files = (events: SaveResultsEvent[]) => events.filter((e) => e.type === 'saved').map((e) => e.file)

describe('saveResults against the simulator', () => {
  it('saves every image of a completed task as <taskId>-<index>.<ext>, with progress', async () => {
    const { sim, client, dir } = await setup()
    const created = await firstValueFrom(createTask$(client, endpoints.i2iPreview, { prompt: 'a watercolour harbour' }))
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const { values, completed } = await collect(task$(client, endpoints.i2iPreview, created.taskId).pipe(saveResults(dir, { allowHosts: [sim.url] })))
    expect(completed).toBe(true)
    expect(files(values)).toEqual([1, 2].map((n) => `${dir}/${created.taskId}-${n}.png`))
    expect(values.filter((e) => e.type === 'progress').every((e) => e.taskId === created.taskId)).toBe(true)
    const done = await lastValueFrom(task$(client, endpoints.i2iPreview, created.taskId))
    if (done.type !== 'completed') throw new Error('not completed')
    for (const [i, url] of done.urls.entries()) expect((await readFile(join(dir, `${created.taskId}-${i + 1}.png`))).equals(await bytesAt(url))).toBe(true)
    expect((await readdir(dir)).sort()).toEqual([`${created.taskId}-1.png`, `${created.taskId}-2.png`])
  })

  it('a download dropped halfway (dropDownloadAt) resumes with Range; the file equals the source', async () => {
    const { sim, client, dir } = await setup()
    const created = await firstValueFrom(textToVideo$(client, { prompt: 'A red kite over a grey sea' }))
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const done = await lastValueFrom(task$(client, endpoints.t2vSpark, created.taskId))
    if (done.type !== 'completed') throw new Error('not completed')
    const source = await bytesAt(done.urls[0]!)
    sim.setFaults({ dropDownloadAt: { bytes: Math.floor(source.length / 2) } })
    const fileRequests = () => sim.requests.filter((r) => r.path.startsWith('/files/')).length
    const before = fileRequests()
    const { values } = await collect(task$(client, endpoints.t2vSpark, created.taskId).pipe(saveResults(dir, { allowHosts: [sim.url] })))
    const saved = values.find((e) => e.type === 'saved')
    expect(saved).toMatchObject({ type: 'saved', bytes: source.length, restarted: 0, file: `${dir}/${created.taskId}-1.mp4` })
    expect(saved?.type === 'saved' && saved.resumed).toBeGreaterThanOrEqual(1)
    expect(fileRequests() - before).toBe(1 + (saved?.type === 'saved' ? saved.resumed : 0))
    expect(sim.requests.filter((r) => r.path.startsWith('/files/')).at(-1)!.status).toBe(206)
    expect((await readFile(join(dir, `${created.taskId}-1.mp4`))).equals(source)).toBe(true)
    expect(await readdir(dir)).toEqual([`${created.taskId}-1.mp4`])
  })

  it('a URL past its expiresAt fails with ResultExpiredError before any request for the file', async () => {
    const { sim, client, dir } = await setup()
    const created = await firstValueFrom(textToVideo$(client, { prompt: 'A red kite over a grey sea' }))
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const done = await lastValueFrom(task$(client, endpoints.t2vSpark, created.taskId))
    if (done.type !== 'completed') throw new Error('not completed')
    sim.advanceTime(HOUR)
    // The expiry is judged on the scheduler's clock: here, the simulator's.
    const simClock: SchedulerLike = { now: () => sim.now(), schedule: asyncScheduler.schedule.bind(asyncScheduler) }
    const { error } = await collect(task$(client, endpoints.t2vSpark, created.taskId).pipe(saveResults(dir, { scheduler: simClock, allowHosts: [sim.url] })))
    expect(isResultExpiredError(error)).toBe(true)
    expect(error).toMatchObject({ requested: false, expiresAt: done.expiresAt })
    expect(sim.requests.filter((r) => r.path.startsWith('/files/'))).toHaveLength(0)
    expect(await readdir(dir)).toEqual([])
  })

  it('the simulator answering 410 (expired by its own clock) is ResultExpiredError too', async () => {
    const { sim, client, dir } = await setup()
    const created = await firstValueFrom(textToVideo$(client, { prompt: 'A red kite over a grey sea' }))
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const done = await lastValueFrom(task$(client, endpoints.t2vSpark, created.taskId))
    sim.advanceTime(HOUR)
    const { error } = await collect(task$(client, endpoints.t2vSpark, done.taskId).pipe(saveResults(dir, { allowHosts: [sim.url] })))
    expect(isResultExpiredError(error) && error.requested).toBe(true)
    expect(await readdir(dir)).toEqual([])
  })
})

/** A completed task event of these URLs (video results carry expiresAt). */
function completed(taskId: string, urls: string[], expiresAt?: Date): TaskEvent {
  return { type: 'completed', taskId, urls, taskInfo: {} as never, reply: {} as never, ...(expiresAt ? { expiresAt } : {}) }
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-save-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe('saveResults file names', () => {
  const gateway = () => fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))

  it('takes the extension from the URL path, lower-cased; else png for an image', async () => {
    const dir = await scratch()
    const urls = ['photo.JPG', 'noext', 'v1.2/clip', 'anim.webp', 'file.toolong', 'a.b/c.gif'].map((p) => `https://cdn.example/files/${p}?sig=x.mp4`)
    const { values, error } = await collect(of(completed('t', urls)).pipe(saveResults(dir, { transport: gateway().transport })))
    expect(error).toBeUndefined()
    expect(files(values)).toEqual(['t-1.jpg', 't-2.png', 't-3.png', 't-4.webp', 't-5.png', 't-6.gif'].map((f) => `${dir}/${f}`))
    expect((await readdir(dir)).sort()).toEqual(['t-1.jpg', 't-2.png', 't-3.png', 't-4.webp', 't-5.png', 't-6.gif'])
  })

  it('a video result (it has expiresAt) without an extension in its URL is saved as mp4', async () => {
    const dir = await scratch()
    const urls = ['https://cdn.example/files/noext', 'https://cdn.example/files/clip.MOV']
    const { values } = await collect(of(completed('t', urls, new Date(Date.now() + HOUR))).pipe(saveResults(dir, { transport: gateway().transport })))
    expect(files(values)).toEqual([`${dir}/t-1.mp4`, `${dir}/t-2.mov`])
  })

  it('trailing slashes of the folder are dropped from the file names', async () => {
    const dir = await scratch()
    for (const given of [`${dir}/`, `${dir}//`]) {
      const { values } = await collect(of(completed('t', ['https://cdn.example/files/a.png'])).pipe(saveResults(given, { transport: gateway().transport, overwrite: true })))
      expect(files(values)).toEqual([`${dir}/t-1.png`])
      expect(values.every((e) => e.file === `${dir}/t-1.png` && e.taskId === 't' && e.index === 1)).toBe(true)
    }
  })

  it('an empty folder name means the working folder', async () => {
    const dir = await scratch()
    // The working folder, as Node's path module reads it.
    vi.spyOn(process, 'cwd').mockReturnValue(dir)
    onTestFinished(() => {
      vi.restoreAllMocks()
    })
    // The body stalls after its first bytes: the file name is read from the progress event, then the download is dropped.
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '8' }, body: 'fed' }))
    const o = observe(of(completed('t', ['https://cdn.example/files/a.png'])).pipe(saveResults('', { transport: gw.transport })))
    await waitFor(() => gw.requests[0]?.fed !== undefined, 3_000, 'the request')
    gw.request(1).fed!.push('kite')
    await waitFor(() => o.values.length > 0 || o.error !== undefined, 3_000, 'the first bytes written')
    o.subscription.unsubscribe()
    expect(o.error).toBeUndefined()
    expect(o.values[0]).toMatchObject({ type: 'progress', bytes: 4, file: './t-1.png' })
  })

  it('lets every event but completed go', async () => {
    const dir = await scratch()
    const events: TaskEvent[] = [
      { type: 'created', taskId: 't', taskInfo: {} as never, idempotencyKey: 'k' },
      { type: 'pending', taskId: 't', taskInfo: {} as never },
      { type: 'processing', taskId: 't', taskInfo: {} as never },
      completed('t', ['https://cdn.example/files/a.png']),
    ]
    const gw = gateway()
    const { values, completed: done } = await collect(of(...events).pipe(saveResults(dir, { transport: gw.transport })))
    expect(done).toBe(true)
    expect(gw.requests).toHaveLength(1)
    expect(values.map((e) => e.type)).toEqual(['progress', 'saved'])
  })
})

describe('saveResults refuses task ids that are not file names', () => {
  it.each(['../../x', '../x', '/etc/x', 'a/b', 'a\\b', '.hidden', '..', 'x.y', '', 'a b'])('task id %j: InvalidRequestError before any request, nothing written', async (taskId) => {
    const dir = await scratch()
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
    const { error } = await collect(of(completed(taskId, ['https://cdn.example/files/a.png'])).pipe(saveResults(join(dir, 'out'), { transport: gw.transport })))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(error).toMatchObject({ issues: [{ path: 'taskId' }] })
    expect(gw.requests).toHaveLength(0)
    expect(await readdir(dir)).toEqual([])
  })

  it('a UUID task id names its files', async () => {
    const dir = await scratch()
    const id = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
    const { values } = await collect(of(completed(id, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: gw.transport })))
    expect(files(values)).toEqual([`${dir}/${id}-1.png`])
  })
})

describe('saveResults names files in lower case', () => {
  it('the task id is lower-cased: ids differing only in case name one file on every file system, as they would where case is ignored', async () => {
    const dir = await scratch()
    const gw = fakeGateway((req) => ({ status: 200, headers: { 'content-length': '4' }, body: req.n === 1 ? 'kite' : 'gull' }))
    const events = [completed('Task-A', ['https://cdn.example/files/a.png']), completed('task-a', ['https://cdn.example/files/b.png'])]
    const { values, error } = await collect(of(...events).pipe(saveResults(dir, { transport: gw.transport, concurrency: 1 })))
    expect(error).toBeUndefined()
    expect(values.filter((e) => e.type === 'saved').map((e) => [e.taskId, e.file])).toEqual([
      ['Task-A', `${dir}/task-a-1.png`],
      ['task-a', `${dir}/task-a-1.png`],
    ])
    expect(await readdir(dir)).toEqual(['task-a-1.png'])
    expect(await readFile(join(dir, 'task-a-1.png'), 'utf8')).toBe('gull')
  })

  it('a UUID in upper case names the same file as in lower case', async () => {
    const dir = await scratch()
    const id = '0B6EA0F5-5F7E-4A7E-9A6C-2F0D5D0C9A11'
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
    const { values } = await collect(of(completed(id, ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: gw.transport })))
    expect(files(values)).toEqual([`${dir}/${id.toLowerCase()}-1.png`])
    expect(values.every((e) => e.taskId === id)).toBe(true)
  })
})

describe('saveResults refuses one expected digest for many files', () => {
  it('sha256 given as a digest: InvalidRequestError at once (true reports each file\'s digest instead)', () => {
    const digest = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    expect(() => saveResults('out', { sha256: digest as never })).toThrow(expect.objectContaining({ name: 'InvalidRequestError', issues: [expect.objectContaining({ path: 'sha256' })] }))
    expect(() => saveResults('out', { sha256: true })).not.toThrow()
  })
})

describe('saveResults refuses a concurrency that would never start a task', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2' as never])('concurrency %s: InvalidRequestError at once', (concurrency) => {
    let thrown: unknown
    try {
      saveResults('out', { concurrency })
    } catch (error) {
      thrown = error
    }
    expect(isInvalidRequestError(thrown)).toBe(true)
    expect(thrown).toMatchObject({ issues: [{ path: 'concurrency', message: `must be an integer of at least 1 (got ${String(concurrency)})` }] })
  })

  it('takes concurrency 1', async () => {
    const dir = await scratch()
    const gw = fakeGateway(() => ({ status: 200, headers: { 'content-length': '4' }, body: 'kite' }))
    const { completed: done } = await collect(of(completed('t', ['https://cdn.example/files/a.png'])).pipe(saveResults(dir, { transport: gw.transport, concurrency: 1 })))
    expect(done).toBe(true)
  })
})
