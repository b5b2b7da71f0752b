import { lastValueFrom, take, tap, type Observable } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpoints, isTaskFailedError, task$, textToVideo$, type TaskEvent, type TaskFailedError } from '../../src/index.js'
import { startSimulator, type Simulator } from '../../src/sim/index.js'
import { outcome, raw, simClient } from './harness.js'
import { ISO_UTC, RESULT_PATHS, TASK_ERRORS, TASK_STATUS_WORDS, TEXT_TO_VIDEO_PATH, UUID, VIDEO_URL_VALIDITY_MS, type ResultPath } from './spec.js'

// Every task result path (the five of SPEC.md and t2v-spark's own), every
// outcome (completed with URLs, failed 3001, failed 400), in both status
// vocabularies: produced by the simulator, read by the client through
// `task$` (and `textToVideo$` for the creation endpoint of the interface),
// what the client emits checked against SPEC.md, and against the
// simulator's raw reply for the same task.

/** Slow enough that real time never moves a task: only `advanceTime` does. */
const TIMING = { pendingMs: 60_000, processingMs: 120_000 } as const

type Vocabulary = keyof typeof TASK_STATUS_WORDS
const SPEC_WORDS = TASK_STATUS_WORDS.spec

/** The outcomes a prompt marker asks of the simulator, and what SPEC.md says the client sees. */
const OUTCOMES = [
  { name: 'completed', marker: '', seen: ['pending', 'processing', 'completed'], error: undefined },
  { name: 'failed 3001', marker: ' [fail:3001]', seen: ['pending', 'processing'], error: TASK_ERRORS[0] },
  { name: 'failed 400', marker: ' [fail:400]', seen: ['pending'], error: TASK_ERRORS[1] },
] as const

describe('the client catalog holds the paths of the interface', () => {
  it.each(RESULT_PATHS)('$key: $kind results read at $path ($source)', ({ key, path, kind }) => {
    expect(endpoints[key].resultPath).toBe(path)
    expect(endpoints[key].kind).toBe(kind)
  })
  it('t2vSpark creates at the text-to-video creation path', () => {
    expect(endpoints.t2vSpark.createPath).toBe(TEXT_TO_VIDEO_PATH)
  })
})

describe.each(['spec', 'new'] as const)('tasks in the %s vocabulary', (vocabulary: Vocabulary) => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await startSimulator({ timeScale: TIMING, vocabulary })
  })
  afterAll(() => sim?.close())

  /** Creates a task at the simulator (its creation convenience at the result path's base, for the models whose creation SPEC does not show). */
  async function created(result: ResultPath, prompt: string): Promise<string> {
    const reply = await raw(sim, 'POST', result.path, { prompt })
    expect(reply.status, reply.text).toBe(202)
    return reply.json.task_info.id as string
  }

  /** Runs a follow to its end, moving the simulator's clock past each status as the client reports it. */
  async function drive(follow$: Observable<TaskEvent>): Promise<{ events: TaskEvent[]; error?: unknown }> {
    const { values, error } = await outcome(follow$.pipe(advancing(sim)))
    return { events: values, ...(error === undefined ? {} : { error }) }
  }

  it('the simulator answers in this vocabulary, and the client presents the interface words', async () => {
    const result = RESULT_PATHS[0]!
    const words = TASK_STATUS_WORDS[vocabulary]
    const client = simClient(sim)
    const id = await created(result, 'A red kite')
    const stages = [0, TIMING.pendingMs, TIMING.processingMs]
    for (const [stage, ms] of stages.entries()) {
      sim.advanceTime(ms)
      const reply = await raw(sim, 'GET', `${result.path}/${id}`)
      expect(reply.json.task_info.status).toBe(words[stage])
      const event = await lastValueFrom(task$(client, endpoints[result.key], id).pipe(take(1)))
      expect(event.type).toBe(SPEC_WORDS[stage])
      expect((event as Extract<TaskEvent, { taskInfo: { status: string } }>).taskInfo.status).toBe(SPEC_WORDS[stage])
    }
    const failing = await created(result, 'A red kite [fail:400]')
    sim.advanceTime(TIMING.pendingMs)
    expect((await raw(sim, 'GET', `${result.path}/${failing}`)).json.task_info.status).toBe(words[3])
  })

  it('text-to-video creation: 202 with task_info id, created_at and updated_at, and no status', async () => {
    const { events } = await drive(textToVideo$(simClient(sim), { prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5 }))
    const first = events[0]!
    expect(first.type).toBe('created')
    if (first.type !== 'created') return
    expect(first.taskId).toMatch(UUID)
    expect(first.taskInfo.id).toBe(first.taskId)
    expect(first.taskInfo.created_at).toMatch(ISO_UTC)
    expect(first.taskInfo.updated_at).toMatch(ISO_UTC)
    expect(first.taskInfo).not.toHaveProperty('status')
    expect(events.map((e) => e.type)).toEqual(['created', 'pending', 'processing', 'completed'])
  })

  describe.each(RESULT_PATHS)('GET $path/{task_id}', (result) => {
    it.each(OUTCOMES)('$name', async ({ marker, seen, error: expected }) => {
      const prompt = `A red kite over a grey sea${marker}`
      const client = simClient(sim)
      const id = result.key === 't2vSpark' ? undefined : await created(result, prompt)
      const follow$ = id === undefined ? textToVideo$(client, { prompt }) : task$(client, endpoints[result.key], id)
      const { events, error } = await drive(follow$)
      const statusEvents = events.filter((e): e is Exclude<TaskEvent, { type: 'created' }> => e.type !== 'created')
      const taskId = events[0]!.taskId
      expect(taskId).toMatch(UUID)

      // Statuses in the interface's words, whatever the simulator said, each once and in order.
      expect(statusEvents.map((e) => e.type)).toEqual(seen)
      for (const event of statusEvents) {
        expect(event.taskId).toBe(taskId)
        expect(event.taskInfo.id).toBe(taskId)
        expect(event.taskInfo.status).toBe(event.type)
        expect(event.taskInfo.created_at).toMatch(ISO_UTC)
        expect(event.taskInfo.updated_at).toMatch(ISO_UTC)
      }

      const reply = await raw(sim, 'GET', `${result.path}/${taskId}`)
      expect(reply.status).toBe(200)
      const other = result.field === 'videos' ? 'images' : 'videos'
      expect(reply.json).not.toHaveProperty(other)

      if (expected === undefined) {
        expect(error).toBeUndefined()
        const done = statusEvents.at(-1)!
        if (done.type !== 'completed') throw new Error(`ended in ${done.type}`)
        // The URLs are the reply's `videos` or `images`, as the simulator gave them.
        expect(reply.json.task_info.status).toBe(TASK_STATUS_WORDS[vocabulary][2])
        expect(done.urls).toEqual(reply.json[result.field])
        expect(done.urls.length).toBeGreaterThan(0)
        for (const url of done.urls) expect(url).toMatch(/^https?:\/\/\S+$/)
        expect(done.reply[result.field]).toEqual(done.urls)
        expect(done.reply).not.toHaveProperty(other)
        if (result.kind === 'video') {
          // Valid at most 1 hour after generation.
          const left = done.expiresAt!.getTime() - Date.parse(done.taskInfo.updated_at)
          expect(left).toBeGreaterThan(0)
          expect(left).toBeLessThanOrEqual(VIDEO_URL_VALIDITY_MS)
        } else {
          expect(done.expiresAt).toBeUndefined()
        }
      } else {
        expect(isTaskFailedError(error), String(error)).toBe(true)
        const failed = error as TaskFailedError
        expect({ code: failed.code, title: failed.title }).toEqual({ code: expected.code, title: expected.title })
        expect(failed.detail).toBeTruthy()
        expect(failed.taskId).toBe(taskId)
        expect(failed.endpoint?.resultPath).toBe(result.path)
        // The same error as the simulator's `task_info.error`; a failed task has no result list.
        expect(reply.json.task_info.status).toBe('failed')
        expect(reply.json.task_info.error).toEqual({ code: failed.code, title: failed.title, detail: failed.detail })
        expect(reply.json).not.toHaveProperty(result.field)
      }
    })
  })
})

/** Moves the simulator's clock past `pending` and `processing` as the client reports them. */
function advancing(sim: Simulator) {
  return tap<TaskEvent>((event) => {
    if (event.type === 'pending') sim.advanceTime(TIMING.pendingMs)
    if (event.type === 'processing') sim.advanceTime(TIMING.processingMs)
  })
}
