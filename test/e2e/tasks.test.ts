import { randomUUID } from 'node:crypto'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import {
  endpoints,
  InvalidRequestError,
  TaskFailedError,
  TaskTimeoutError,
  taskUrls,
  type Gateway,
  type TaskEndpoint,
  type TaskEvent,
} from '../../src/index.js'
import type { Simulator } from '../../src/sim/index.js'
import { all, call, errorOf, FROZEN, gatewayFor, observe, requestsTo, simulator } from './helpers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const HOUR = 3_600_000
const types = (events: readonly TaskEvent[]) => events.map((e) => e.type)
type Completed = Extract<TaskEvent, { type: 'completed' }>

/** Follows a task on a FROZEN simulator, moving simulated time on as soon as each status is seen. */
async function stepThrough(sim: Simulator, events$: ReturnType<Gateway['task$']>) {
  const o = observe(events$)
  await vi.waitFor(() => expect(o.values.at(-1)?.type).toBe('pending'))
  sim.advanceTime(FROZEN.pendingMs)
  await vi.waitFor(() => expect(o.error ?? o.values.at(-1)?.type).not.toBe('pending'))
  if (o.values.at(-1)?.type === 'processing') sim.advanceTime(FROZEN.processingMs)
  return o.done
}

/** Creates a task at the simulator and returns its id: through createTask$ where there is a creation path, else a raw POST. */
async function createdTask(sim: Simulator, gateway: Gateway, endpoint: TaskEndpoint, prompt: string): Promise<string> {
  if (endpoint.createPath) {
    const created = await firstValueFrom(gateway.createTask$(endpoint, { prompt }))
    expect(created.type).toBe('created')
    return created.taskId
  }
  const res = await call(sim, endpoint.resultPath, { body: { prompt } })
  expect(res.status).toBe(202)
  return ((await res.json()) as { task_info: { id: string } }).task_info.id
}

const ALL = Object.entries(endpoints) as [keyof typeof endpoints, TaskEndpoint][]
const CREATABLE = ALL.filter(([, e]) => e.createPath)

describe('media tasks end to end', () => {
  const options = {}
  it('textToVideo$: created, pending, processing, completed; the video URL serves an MP4 for one hour', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const { values, error } = await stepThrough(sim, gateway.textToVideo$({ prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5 }))
    expect(error).toBeUndefined()
    expect(types(values)).toEqual(['created', 'pending', 'processing', 'completed'])
    const taskId = values[0]!.taskId
    expect(taskId).toMatch(UUID)
    expect(values.every((e) => e.taskId === taskId)).toBe(true)
    const done = values[3] as Completed
    expect(done.urls).toHaveLength(1)
    expect(done.urls[0]).toMatch(new RegExp(`^${sim.url}/files/${taskId}\\.mp4\\?`))
    expect(done.expiresAt!.getTime()).toBe(Date.parse(done.taskInfo.updated_at) + HOUR)

    const posts = requestsTo(sim, 'POST', '/vendors/vendor-b/v1/t2v-spark/generation')
    expect(posts).toHaveLength(1)
    expect(requestsTo(sim, 'GET', `/vendors/vendor-b/v1/t2v-spark/generation/${taskId}`).length).toBeGreaterThanOrEqual(3)

    const video = await fetch(done.urls[0]!)
    expect(video.status).toBe(200)
    expect(video.headers.get('content-type')).toBe('video/mp4')
    const bytes = Buffer.from(await video.arrayBuffer())
    expect(bytes.length).toBeGreaterThan(1000)
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp')

    sim.advanceTime(HOUR)
    expect((await fetch(done.urls[0]!)).status).toBe(410)
  })

  it('textToVideo$ on real (fast) simulated time with small poll delays reaches completed', async () => {
    const sim = await simulator({ timeScale: { pendingMs: 100, processingMs: 150 } })
    const gateway = gatewayFor(sim, { ...options, taskPoll: { initialDelayMs: 50, maxDelayMs: 200, jitter: 0 } })
    const events = await all(gateway.textToVideo$({ prompt: 'A paper boat in the rain', duration: 10, size: '1920*1080' }))
    expect(events[0]!.type).toBe('created')
    expect(events.at(-1)!.type).toBe('completed')
    // Every status is reported once, in the order of a task's life.
    const order = ['created', 'pending', 'processing', 'completed']
    const seen = types(events)
    expect(new Set(seen).size).toBe(seen.length)
    expect([...seen].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(seen)
  })

  it.each(CREATABLE)('createTask$(endpoints.%s) creates at its path and completes with its result URLs', async (name, endpoint) => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const { values, error } = await stepThrough(sim, gateway.createTask$(endpoint, { prompt: `a ${name} task` }))
    expect(error).toBeUndefined()
    expect(types(values)).toEqual(['created', 'pending', 'processing', 'completed'])
    expect(requestsTo(sim, 'POST', endpoint.createPath!).filter((r) => r.path === endpoint.createPath)).toHaveLength(1)
    const urls = (values.at(-1) as Completed).urls
    const image = endpoint.kind === 'image'
    expect(urls).toHaveLength(image ? 2 : 1)
    for (const url of urls) {
      const res = await fetch(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(image ? 'image/png' : 'video/mp4')
      await res.arrayBuffer()
    }
    expect((values.at(-1) as Completed).expiresAt === undefined).toBe(image)
  })

  it('createTask$(endpoints.imageEdit) is refused before sending: it has no creation path', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const err = await errorOf(gateway.createTask$(endpoints.imageEdit, { prompt: 'x' }))
    expect(err).toBeInstanceOf(InvalidRequestError)
    expect(sim.requests).toHaveLength(0)
  })

  it.each(ALL)('task$(endpoints.%s) follows an existing task: first read at once, then to completed', async (name, endpoint) => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const id = await createdTask(sim, gateway, endpoint, `follow ${name}`)
    // Poll slowly: the immediate first read must not wait for the poll delay.
    const o = observe(gateway.task$(endpoint, id, { poll: { initialDelayMs: 60_000, maxDelayMs: 60_000 } }))
    await vi.waitFor(() => expect(types(o.values)).toEqual(['pending']))
    const reads = requestsTo(sim, 'GET', `${endpoint.resultPath}/${id}`)
    expect(reads).toHaveLength(1)
    o.subscription.unsubscribe()

    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const events = await all(gateway.task$(endpoint, id))
    expect(types(events)).toEqual(['completed'])
    const done = events[0] as Completed
    expect(done.taskId).toBe(id)
    expect(done.urls.length).toBe(endpoint.kind === 'image' ? 2 : 1)
    expect(done.urls.every((u) => u.startsWith(`${sim.url}/files/${id}`))).toBe(true)
  })

  it('the new status vocabulary (queued/running/succeeded) is presented in the interface words', async () => {
    const sim = await simulator({ timeScale: FROZEN, vocabulary: 'new' })
    const gateway = gatewayFor(sim, options)
    const id = await createdTask(sim, gateway, endpoints.videoOne, 'vocabulary')
    const raw = (await (await call(sim, `${endpoints.videoOne.resultPath}/${id}`)).json()) as { task_info: { status: string } }
    expect(raw.task_info.status).toBe('queued') // the simulator really speaks the new words
    const { values, error } = await stepThrough(sim, gateway.task$(endpoints.videoOne, id))
    expect(error).toBeUndefined()
    expect(types(values)).toEqual(['pending', 'processing', 'completed'])
    expect(values.map((e) => (e.type === 'created' ? undefined : e.taskInfo.status))).toEqual(['pending', 'processing', 'completed'])
  })

  it('the spec vocabulary is read as it is', async () => {
    const sim = await simulator({ timeScale: FROZEN, vocabulary: 'spec' })
    const gateway = gatewayFor(sim, options)
    const id = await createdTask(sim, gateway, endpoints.i2iPreview, 'vocabulary')
    const raw = (await (await call(sim, `${endpoints.i2iPreview.resultPath}/${id}`)).json()) as { task_info: { status: string } }
    expect(raw.task_info.status).toBe('pending')
    const { values } = await stepThrough(sim, gateway.task$(endpoints.i2iPreview, id))
    expect(types(values)).toEqual(['pending', 'processing', 'completed'])
  })

  it('a task failing in execution [fail:3001] ends in TaskFailedError with code, title and detail', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const { values, error } = await stepThrough(sim, gateway.textToVideo$({ prompt: 'boom [fail:3001]' }))
    expect(types(values)).toEqual(['created', 'pending', 'processing'])
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error).toMatchObject({ taskId: values[0]!.taskId, code: 3001, title: 'Task Execution Error' })
    expect((error as TaskFailedError).detail).toMatch(/\[fail:3001\]/)
    expect((error as Error).message).toContain('3001')
  })

  it('a task rejected as an invalid request [fail:400] fails as it leaves pending', async () => {
    const sim = await simulator({ timeScale: FROZEN, vocabulary: 'new' })
    const gateway = gatewayFor(sim, options)
    const { values, error } = await stepThrough(sim, gateway.createTask$(endpoints.i2iPreview, { prompt: 'bad image [fail:400]' }))
    expect(types(values)).toEqual(['created', 'pending'])
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error).toMatchObject({ code: 400, title: 'Invalid Request' })
    expect((error as TaskFailedError).detail).toMatch(/rejected/)
  })

  it('task$ of an already failed task ends in TaskFailedError at the first read', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const id = await createdTask(sim, gateway, endpoints.imageEdit, 'edit [fail:3001]')
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const err = await errorOf(gateway.task$(endpoints.imageEdit, id))
    expect(err).toBeInstanceOf(TaskFailedError)
    expect(err).toMatchObject({ taskId: id, code: 3001 })
    expect(requestsTo(sim, 'GET', endpoints.imageEdit.resultPath)).toHaveLength(1)
  })

  it('taskUrls() of a text-to-video task gives the URLs once', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const o = observe(gateway.textToVideo$({ prompt: 'urls' }).pipe(taskUrls()))
    await vi.waitFor(() => expect(requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath).length).toBeGreaterThan(0))
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const { values, completed } = await o.done
    expect(completed).toBe(true)
    expect(values).toHaveLength(1)
    expect(values[0]).toHaveLength(1)
  })

  it('a late subscriber of a followed task gets the latest status at once and the same end', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const id = await createdTask(sim, gateway, endpoints.videoTwo, 'shared')
    const first = observe(gateway.task$(endpoints.videoTwo, id))
    await vi.waitFor(() => expect(types(first.values)).toEqual(['pending']))
    sim.advanceTime(FROZEN.pendingMs)
    await vi.waitFor(() => expect(types(first.values)).toEqual(['pending', 'processing']))
    const late = observe(gateway.task$(endpoints.videoTwo, id))
    expect(types(late.values)).toEqual(['processing'])
    sim.advanceTime(FROZEN.processingMs)
    const [a, b] = await Promise.all([first.done, late.done])
    expect(types(a.values)).toEqual(['pending', 'processing', 'completed'])
    expect(types(b.values)).toEqual(['processing', 'completed'])
  })

  it('past its deadline: TaskTimeoutError carrying the task, which task$ follows on to completion without a new POST', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const gateway = gatewayFor(sim, options)
    const err = await errorOf(gateway.textToVideo$({ prompt: 'a long render' }, { deadlineMs: 150 }))
    expect(err).toBeInstanceOf(TaskTimeoutError)
    const timeout = err as TaskTimeoutError
    expect(timeout.taskId).toMatch(UUID)
    expect(timeout.endpoint.resultPath).toBe(endpoints.t2vSpark.resultPath)
    expect(timeout.lastStatus).toBe('pending')
    expect(timeout.message).toContain(timeout.taskId)
    sim.advanceTime(FROZEN.pendingMs + FROZEN.processingMs)
    const events = await all(gateway.task$(timeout.endpoint, timeout.taskId))
    expect(types(events)).toEqual(['completed'])
    expect(requestsTo(sim, 'POST', endpoints.t2vSpark.createPath!)).toHaveLength(1)
  })

  it('a random task id is not found: HttpError not_found after one read', async () => {
    const sim = await simulator()
    const gateway = gatewayFor(sim, options)
    const id = randomUUID()
    const err = await errorOf(gateway.task$(endpoints.t2vSpark, id))
    expect(err).toMatchObject({ name: 'HttpError', status: 404, kind: 'not_found', method: 'GET' })
    expect(requestsTo(sim, 'GET', `${endpoints.t2vSpark.resultPath}/${id}`)).toHaveLength(1)
  })
})
