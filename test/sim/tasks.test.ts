import { describe, expect, it } from 'vitest'
import { call, createTask, DONE, FROZEN, IMAGE_EDIT, json, simulator, T2V, VIDEO_ONE } from './helpers.js'

const MODELS = [
  { path: T2V, result: 'videos', count: 1 },
  { path: VIDEO_ONE, result: 'videos', count: 1 },
  { path: '/vendors/vendor-b/v1/i2v-spark/generation', result: 'videos', count: 1 },
  { path: '/vendors/vendor-c/v1/video-two/generation', result: 'videos', count: 1 },
  { path: IMAGE_EDIT, result: 'images', count: 2 },
  { path: '/vendors/vendor-d/v1/i2i-preview/generation', result: 'images', count: 2 },
] as const

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const UUID_V4 = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/

describe('simulator: media tasks', () => {
  it('creates a text-to-video task: 202 with id, created_at and updated_at, and no status', async () => {
    const sim = await simulator()
    const { status, body } = await json(sim, T2V, { body: { prompt: 'A fox in the snow', size: '1920*1080', duration: 5 } })
    expect(status).toBe(202)
    expect(Object.keys(body.task_info).sort()).toEqual(['created_at', 'id', 'updated_at'])
    expect(body.task_info.id).toMatch(UUID_V4)
    expect(body.task_info.created_at).toMatch(ISO_MS)
    expect(body.task_info.updated_at).toBe(body.task_info.created_at)
  })

  it('moves pending → processing → completed on the simulated clock', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const { body } = await json(sim, T2V, { body: { prompt: 'A fox' } })
    const read = async () => (await json(sim, `${T2V}/${body.task_info.id}`)).body
    expect(await read()).toEqual({ task_info: { ...body.task_info, status: 'pending' } })
    sim.advanceTime(FROZEN.pendingMs)
    const processing = await read()
    expect(processing.task_info.status).toBe('processing')
    expect(processing.task_info.updated_at > processing.task_info.created_at).toBe(true)
    expect(processing).not.toHaveProperty('videos')
    sim.advanceTime(FROZEN.processingMs)
    const completed = await read()
    expect(completed.task_info.status).toBe('completed')
    expect(completed.videos).toEqual([expect.stringMatching(new RegExp(`^${sim.url}/files/${body.task_info.id}\\.mp4\\?expires=\\d+$`))])
  })

  it('completes within about two seconds of real time in fast mode', async () => {
    const sim = await simulator()
    const id = await createTask(sim, T2V)
    const read = async () => (await json(sim, `${T2V}/${id}`)).body.task_info.status
    expect(await read()).toBe('pending')
    sim.advanceTime(2_000)
    expect(await read()).toBe('completed')
  })

  it.each([
    ['[fail:3001]', { code: 3001, title: 'Task Execution Error' }, DONE],
    ['[fail:3003]', { code: 3003, title: 'Task Execution Error' }, DONE],
    ['[fail:400]', { code: 400, title: 'Invalid Request' }, FROZEN.pendingMs],
  ])('fails a task whose prompt holds %s, with the error in task_info and no result', async (marker, error, after) => {
    const sim = await simulator({ timeScale: FROZEN })
    const id = await createTask(sim, VIDEO_ONE, { prompt: `A fox ${marker}` })
    sim.advanceTime(after - 1_000) // a second short: real time moves the clock a little too
    expect((await json(sim, `${VIDEO_ONE}/${id}`)).body.task_info.status).not.toBe('failed')
    sim.advanceTime(1_000)
    const { status, body: reply } = await json(sim, `${VIDEO_ONE}/${id}`)
    expect(status).toBe(200)
    expect(reply.task_info).toMatchObject({ status: 'failed', error: { ...error, detail: expect.any(String) } })
    expect(reply).not.toHaveProperty('videos')
  })

  it('reports queued, running, succeeded and failed with vocabulary new', async () => {
    const sim = await simulator({ timeScale: FROZEN, vocabulary: 'new' })
    const ok = await createTask(sim, T2V)
    const bad = await createTask(sim, T2V, { prompt: 'A fox [fail:3001]' })
    const status = async (id: string) => (await json(sim, `${T2V}/${id}`)).body.task_info.status
    expect(await status(ok)).toBe('queued')
    sim.advanceTime(FROZEN.pendingMs)
    expect(await status(ok)).toBe('running')
    sim.advanceTime(FROZEN.processingMs)
    expect([await status(ok), await status(bad)]).toEqual(['succeeded', 'failed'])
  })

  it.each(MODELS)('serves $path/{id} with $count $result URL(s) when completed', async ({ path, result, count }) => {
    const sim = await simulator({ timeScale: FROZEN })
    const id = await createTask(sim, path)
    sim.advanceTime(DONE)
    const { body } = await json(sim, `${path}/${id}`)
    expect(body.task_info.status).toBe('completed')
    expect(body[result]).toHaveLength(count)
    expect(body).not.toHaveProperty(result === 'videos' ? 'images' : 'videos')
  })

  it('answers 404 for an unknown id, a non-UUID id, and a task read under another model', async () => {
    const sim = await simulator()
    const id = await createTask(sim, T2V)
    for (const path of [`${T2V}/00000000-0000-4000-8000-000000000000`, `${T2V}/not-a-uuid`, `${VIDEO_ONE}/${id}`]) {
      const reply = await json(sim, path)
      expect(reply).toMatchObject({ status: 404, body: { detail: 'task not found' } })
    }
    expect((await call(sim, `${T2V}/${id}`)).status).toBe(200)
  })

  it('keeps a ledger of every task: id, path, key, creation time, delivery and reads', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const before = sim.now()
    const a = await createTask(sim, T2V, { prompt: 'one' }, { 'idempotency-key': 'key-a' })
    const b = await createTask(sim, IMAGE_EDIT, { prompt: 'two' })
    await json(sim, `${T2V}/${a}`)
    await json(sim, `${T2V}/${a}`)
    expect(sim.tasks).toEqual([
      { id: a, path: T2V, idempotencyKey: 'key-a', createdAt: expect.any(Number), delivered: true, reads: 2 },
      { id: b, path: IMAGE_EDIT, createdAt: expect.any(Number), delivered: true, reads: 0 },
    ])
    expect(sim.tasks[0]!.createdAt).toBeGreaterThanOrEqual(before)
  })
})
