import nock from 'nock'
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs'
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest'
import { createGateway, endpoints, InvalidRequestError, taskEndpoint, TaskFailedError, taskUrls, ValidationError, type TaskEvent } from '../src/index.js'

const BASE = 'http://gateway.test'
const ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
const T = '2026-03-01T10:00:00.250Z'
const instant = { initialDelayMs: 0, maxDelayMs: 0, jitter: 0 }

function gateway(fetchFn: typeof fetch = (input, init) => fetch(input, init)) {
  return createGateway({ baseUrl: BASE, apiKey: 'k-secret', fetch: fetchFn, taskPoll: instant, retry: { baseDelayMs: 0 } })
}

const info = (status: string, extra: object = {}) => ({ task_info: { id: ID, status, created_at: T, updated_at: T }, ...extra })
const types = (events: TaskEvent[]) => events.map((e) => e.type)

beforeAll(() => nock.disableNetConnect())
afterAll(() => nock.enableNetConnect())
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([])
  nock.cleanAll()
})

describe('textToVideo$', () => {
  it('posts the body with the bearer token, then follows the task to its video URLs', async () => {
    const body = { prompt: 'A red kite over a grey sea', size: '1280*720' as const, duration: 5 as const, seed: 7 }
    nock(BASE, { reqheaders: { authorization: 'Bearer k-secret' } })
      .post('/vendors/vendor-b/v1/t2v-spark/generation', body)
      .reply(202, { task_info: { id: ID, created_at: T, updated_at: T } })
      .get(`/vendors/vendor-b/v1/t2v-spark/generation/${ID}`)
      .reply(200, info('pending'))
      .get(`/vendors/vendor-b/v1/t2v-spark/generation/${ID}`)
      .reply(200, info('pending'))
      .get(`/vendors/vendor-b/v1/t2v-spark/generation/${ID}`)
      .reply(200, info('processing'))
      .get(`/vendors/vendor-b/v1/t2v-spark/generation/${ID}`)
      .reply(200, info('completed', { videos: ['https://cdn.test/a.mp4'] }))
    const events = await lastValueFrom(gateway().textToVideo$(body).pipe(toArray()))
    expect(types(events)).toEqual(['created', 'pending', 'processing', 'completed'])
    expect(events[0]).toMatchObject({ taskId: ID })
    expect(events[3]).toMatchObject({ urls: ['https://cdn.test/a.mp4'], expiresAt: new Date(Date.parse(T) + 3_600_000) })
  })

  it.each([
    [{}, 'prompt'],
    [{ prompt: 'x'.repeat(2001) }, 'prompt'],
    [{ prompt: 'ok', negative_prompt: 'n'.repeat(501) }, 'negative_prompt'],
    [{ prompt: 'ok', size: '1280x720' }, 'size'],
    [{ prompt: 'ok', size: '832*480' }, 'size'],
    [{ prompt: 'ok', duration: 7 }, 'duration'],
    [{ prompt: 'ok', seed: 2147483648 }, 'seed'],
    [{ prompt: 'ok', seed: 1.5 }, 'seed'],
    [{ prompt: 'ok', seed: -1 }, 'seed'],
    [{ prompt: 'ok', audio: 'yes' }, 'audio'],
    [{ prompt: 'ok', audio_url: 'song.mp3' }, 'audio_url'],
    [{ prompt: 'ok', prompt_extend: null }, 'prompt_extend'],
    [{ prompt: 'ok', safety_filter: true }, 'safety_filter'],
  ])('refuses %j naming %s, sending nothing', async (body, field) => {
    const spy = vi.fn<typeof fetch>()
    const error = await firstValueFrom(gateway(spy).textToVideo$(body as never)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues.map((i) => i.path)).toContain(field)
    expect((error as Error).message).toContain(field)
    expect(spy).not.toHaveBeenCalled()
  })

  it('sends unknown fields when the caller opts in', async () => {
    nock(BASE)
      .post('/vendors/vendor-b/v1/t2v-spark/generation', { prompt: 'ok', safety_filter: true, audio: null })
      .reply(202, { task_info: { id: ID, created_at: T, updated_at: T } })
    const first = await firstValueFrom(gateway().textToVideo$({ prompt: 'ok', safety_filter: true, audio: null } as never, { allowUnknownFields: true }))
    expect(first.type).toBe('created')
  })

  it('does not post twice when creation fails with a 500 (the task may exist)', async () => {
    const scope = nock(BASE).post('/vendors/vendor-b/v1/t2v-spark/generation').once().reply(500, { message: 'boom' })
    const error = await firstValueFrom(gateway().textToVideo$({ prompt: 'ok' })).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 500, kind: 'server' })
    expect(scope.isDone()).toBe(true)
  })

  it('posts again after a 429, which the gateway refused', async () => {
    nock(BASE)
      .post('/vendors/vendor-b/v1/t2v-spark/generation')
      .reply(429, { error: 'slow down' }, { 'retry-after': '0' })
      .post('/vendors/vendor-b/v1/t2v-spark/generation')
      .reply(202, { task_info: { id: ID, created_at: T, updated_at: T } })
    const first = await firstValueFrom(gateway().textToVideo$({ prompt: 'ok' }))
    expect(first).toMatchObject({ type: 'created', taskId: ID })
  })

  it('ends a failed task in TaskFailedError', async () => {
    nock(BASE)
      .post('/vendors/vendor-b/v1/t2v-spark/generation')
      .reply(202, { task_info: { id: ID, created_at: T, updated_at: T } })
      .get(`/vendors/vendor-b/v1/t2v-spark/generation/${ID}`)
      .reply(200, { task_info: { id: ID, status: 'failed', created_at: T, updated_at: T, error: { code: 3001, title: 'Task Execution Error', detail: 'restricted prompt' } } })
    const error = await lastValueFrom(gateway().textToVideo$({ prompt: 'ok' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error).toMatchObject({ taskId: ID, code: 3001, title: 'Task Execution Error', detail: 'restricted prompt' })
    expect((error as Error).message).toContain('restricted prompt')
  })
})

describe('task$ on every result path of the interface', () => {
  const cases = [
    ['t2vSpark', '/vendors/vendor-b/v1/t2v-spark/generation', 'videos'],
    ['videoOne', '/vendors/vendor-a/v1/video-one/generation', 'videos'],
    ['i2vSpark', '/vendors/vendor-b/v1/i2v-spark/generation', 'videos'],
    ['videoTwo', '/vendors/vendor-c/v1/video-two/generation', 'videos'],
    ['imageEdit', '/vendors/vendor-d/v1/image/edit', 'images'],
    ['i2iPreview', '/vendors/vendor-d/v1/i2i-preview/generation', 'images'],
  ] as const
  describe.each(['spec', 'newer'] as const)('%s vocabulary', (vocabulary) => {
    const words = vocabulary === 'spec' ? ['pending', 'processing', 'completed'] : ['queued', 'running', 'succeeded']
    it.each(cases)('%s reads %s/{id} and yields %s', async (name, path, field) => {
      const urls = field === 'videos' ? ['https://cdn.test/v.mp4'] : ['https://cdn.test/1.png', 'https://cdn.test/2.png']
      nock(BASE)
        .get(`${path}/${ID}`)
        .reply(200, info(words[0]!))
        .get(`${path}/${ID}`)
        .reply(200, info(words[1]!))
        .get(`${path}/${ID}`)
        .reply(200, info(words[2]!, { [field]: urls }))
      const events = await lastValueFrom(gateway().task$(endpoints[name], ID).pipe(toArray()))
      expect(types(events)).toEqual(['pending', 'processing', 'completed'])
      expect(events[2]).toMatchObject({ urls })
      expect('expiresAt' in events[2]!).toBe(field === 'videos')
    })
  })

  it('addresses a model outside the catalog by the path pattern', async () => {
    const wan = taskEndpoint({ vendor: 'vendor-b', model: 't2v-wan26', kind: 'video' })
    nock(BASE).get(`/vendors/vendor-b/v1/t2v-wan26/generation/${ID}`).reply(200, info('completed', { videos: ['https://cdn.test/w.mp4'] }))
    expect(await firstValueFrom(gateway().task$(wan, ID).pipe(taskUrls()))).toEqual(['https://cdn.test/w.mp4'])
  })

  it.each(['', '../x', 'abc', `${ID}/../../x`, `${ID}?a=1`, 'a/b', 42])('refuses the task id %j before building a path', async (id) => {
    const spy = vi.fn<typeof fetch>()
    const error = await firstValueFrom(gateway(spy).task$(endpoints.t2vSpark, id as string)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues[0]?.path).toBe('taskId')
    expect(spy).not.toHaveBeenCalled()
  })

  it.each([
    ['completed without videos', info('completed'), 'videos'],
    ['completed with an empty list', info('completed', { videos: [] }), 'videos'],
    ['completed with a relative URL', info('completed', { videos: ['/v.mp4'] }), 'videos.0'],
    ['failed without error', info('failed'), 'task_info.error'],
    ['an unknown status', info('exploded'), 'task_info.status'],
    ['a local-time timestamp', { task_info: { id: ID, status: 'pending', created_at: '2026-03-01 10:00', updated_at: T } }, 'task_info.created_at'],
  ])('rejects a reply %s with a ValidationError at %s', async (_, body, path) => {
    nock(BASE).get(`/vendors/vendor-b/v1/t2v-spark/generation/${ID}`).reply(200, body)
    const error = await lastValueFrom(gateway().task$(endpoints.t2vSpark, ID)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).issues.map((i) => i.path)).toContain(path)
    expect((error as ValidationError).payload).toEqual(body)
  })

  it('shares one poll loop between subscribers of the same task; a late one gets the latest status at once', async () => {
    const path = `/vendors/vendor-b/v1/t2v-spark/generation/${ID}`
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let reads = 0
    const fetchFn: typeof fetch = async () => {
      reads += 1
      if (reads === 2) await gate
      const body = reads === 1 ? info('processing') : info('completed', { videos: ['https://cdn.test/v.mp4'] })
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
    }
    const g = gateway(fetchFn)
    const a: string[] = []
    const b: string[] = []
    const doneA = lastValueFrom(g.task$(endpoints.t2vSpark, ID).pipe(toArray()))
    await vi.waitFor(() => expect(reads).toBe(2))
    const doneB = lastValueFrom(g.task$(endpoints.t2vSpark, ID.toUpperCase()).pipe(toArray()))
    release()
    a.push(...types(await doneA))
    b.push(...types(await doneB))
    expect(a).toEqual(['processing', 'completed'])
    expect(b).toEqual(['processing', 'completed'])
    expect(reads).toBe(2)
    void path
  })
})

describe('createTask$', () => {
  it('refuses an endpoint without a creation path', async () => {
    const error = await firstValueFrom(gateway().createTask$(endpoints.imageEdit, { prompt: 'x' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
  })

  it('creates at the pattern path of any catalog model', async () => {
    nock(BASE)
      .post('/vendors/vendor-d/v1/i2i-preview/generation', { prompt: 'watercolour' })
      .reply(202, { task_info: { id: ID, created_at: T, updated_at: T } })
      .get(`/vendors/vendor-d/v1/i2i-preview/generation/${ID}`)
      .reply(200, info('completed', { images: ['https://cdn.test/1.png'] }))
    const urls = await firstValueFrom(gateway().createTask$(endpoints.i2iPreview, { prompt: 'watercolour' }).pipe(taskUrls()))
    expect(urls).toEqual(['https://cdn.test/1.png'])
  })

  it('rejects a creation reply without a task id', async () => {
    nock(BASE).post('/vendors/vendor-a/v1/video-one/generation').reply(202, { ok: true })
    const error = await firstValueFrom(gateway().createTask$(endpoints.videoOne, { prompt: 'x' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
  })
})
