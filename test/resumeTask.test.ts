import { concat, lastValueFrom, retry, take, tap, throwError, type Observable } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createClient, type Client, type ClientOptions } from '../src/client.js'
import { endpoints } from '../src/endpoints.js'
import { isInvalidRequestError } from '../src/errors/InvalidRequestError.js'
import { isTaskCreationUnknownError } from '../src/errors/TaskCreationUnknownError.js'
import type { TaskEvent } from '../src/operators/pollTask.js'
import { resumeTask$, type SavedTask } from '../src/resumeTask$.js'
import { startSimulator, type Simulator, type SimulatorOptions } from '../src/sim/index.js'
import { textToVideo$ } from '../src/tasks$.js'
import { collect, errorOf } from './helpers/collect.js'

const body = { prompt: 'A red kite over a grey sea', size: '1280*720', duration: 5 } as const
const KEY = '3f1c2a4e-7b5d-8c9e-a1f2-0b3c4d5e6f70'

async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ timeScale: { pendingMs: 40, processingMs: 40 }, ...options })
  onTestFinished(() => sim.close())
  return sim
}

function clientOf(sim: Simulator, options: Partial<ClientOptions> = {}): Client {
  return createClient({ baseUrl: sim.url, apiKey: sim.apiKey, taskPoll: { initialDelayMs: 20, factor: 1, maxDelayMs: 20 }, ...options })
}

const create = (client: Client) => (key: string) => textToVideo$(client, body, { idempotencyKey: key })
const posts = (sim: Simulator) => sim.requests.filter((r) => r.method === 'POST')
const types = (events: TaskEvent[]) => events.map((e) => e.type)

/** Runs resumeTask$ from `saved`, logging each save (with the POSTs the simulator had seen by then) and each event, in order. */
async function resume(sim: Simulator, client: Client, saved: SavedTask, make: (key: string) => Observable<TaskEvent> = create(client), idempotencyKey?: string) {
  const log: string[] = []
  const states: SavedTask[] = []
  // A save that takes a while, as a write to Redis does: it is logged once done.
  const save = async (state: SavedTask) => {
    const sent = posts(sim).length
    await new Promise((resolve) => setTimeout(resolve, 10))
    states.push(state)
    log.push(`save ${Object.keys(state).join('+')} after ${sent} POSTs`)
  }
  const outcome = await collect(
    resumeTask$(client, endpoints.t2vSpark, saved, make, { save, ...(idempotencyKey ? { idempotencyKey } : {}) }).pipe(tap((event) => log.push(event.type))),
  )
  return { ...outcome, log, states }
}

describe('resumeTask$ from nothing saved', () => {
  it('hands the key to save before the POST, the task id before the created event, then follows to completion', async () => {
    const sim = await simulator()
    const { log, states, completed, values } = await resume(sim, clientOf(sim), {}, undefined, KEY)
    expect(completed).toBe(true)
    expect(log.slice(0, 3)).toEqual(['save idempotencyKey after 0 POSTs', 'save idempotencyKey+taskId after 1 POSTs', 'created'])
    expect(log.at(-1)).toBe('completed')
    expect(states).toEqual([{ idempotencyKey: KEY }, { idempotencyKey: KEY, taskId: values[0]!.taskId }])
    expect(posts(sim).map((r) => r.idempotencyKey)).toEqual([KEY])
    expect(sim.tasks.map((t) => t.idempotencyKey)).toEqual([KEY])
  })

  it('a save that fails sends nothing', async () => {
    const sim = await simulator()
    const client = clientOf(sim)
    const error = await errorOf(resumeTask$(client, endpoints.t2vSpark, {}, create(client), { save: () => Promise.reject(new Error('Redis is down')) }))
    expect((error as Error).message).toContain('Redis is down')
    expect(sim.requests).toHaveLength(0)
  })
})

describe('resumeTask$ from a saved key (a worker killed after saving it, before the task id was known)', () => {
  it('on a gateway that honours keys, sends the creation again with the key and gets the task made the first time: one task', async () => {
    const sim = await simulator({ faults: { resetAfterCreate: { every: 1 } } })
    // The first worker: the task is made, its reply lost, and the worker gone before it learnt the id.
    const first = await resume(sim, clientOf(sim, { retry: false }), {}, undefined, KEY)
    expect(isTaskCreationUnknownError(first.error)).toBe(true)
    expect(first.states).toEqual([{ idempotencyKey: KEY }])
    expect(sim.tasks).toHaveLength(1)

    sim.setFaults({})
    const second = await resume(sim, clientOf(sim, { idempotentCreate: true }), first.states.at(-1)!)
    expect(second.completed).toBe(true)
    expect(second.states).toEqual([{ idempotencyKey: KEY, taskId: sim.tasks[0]!.id }])
    expect(second.values.every((e) => e.taskId === sim.tasks[0]!.id)).toBe(true)
    expect(sim.tasks).toHaveLength(1)
    expect(posts(sim).map((r) => r.idempotencyKey)).toEqual([KEY, KEY])
  })

  it('on a gateway not known to honour keys, sends nothing and ends in TaskCreationUnknownError carrying the key', async () => {
    const sim = await simulator({ idempotency: 'ignore' })
    const { error, states } = await resume(sim, clientOf(sim), { idempotencyKey: KEY })
    expect(isTaskCreationUnknownError(error)).toBe(true)
    expect(error).toMatchObject({ idempotencyKey: KEY, endpoint: endpoints.t2vSpark })
    expect((error as Error).message).toContain(`{ idempotencyKey: '${KEY}' }`)
    expect((error as Error).message).toContain('check the gateway for the task first')
    expect((error as Error).message).not.toContain(sim.apiKey)
    expect(states).toEqual([])
    expect(sim.requests).toHaveLength(0)
    expect(sim.tasks).toHaveLength(0)
  })

  it('a creation whose cut reply named the task saves that id and follows it, without a second task', async () => {
    const sim = await simulator({ faults: { garbledCreateReply: { every: 1 } } })
    const { completed, states, values } = await resume(sim, clientOf(sim, { retry: false }), {}, undefined, KEY)
    expect(completed).toBe(true)
    expect(states).toEqual([{ idempotencyKey: KEY }, { idempotencyKey: KEY, taskId: sim.tasks[0]!.id }])
    expect(types(values).at(-1)).toBe('completed')
    expect(sim.tasks).toHaveLength(1)
    expect(posts(sim)).toHaveLength(1)
  })
})

describe('resumeTask$ from a saved task id', () => {
  it('follows it with the events of task$, and sends no creation', async () => {
    const sim = await simulator()
    const client = clientOf(sim)
    const made = await lastValueFrom(textToVideo$(client, body))
    const { values, states, completed } = await resume(sim, client, { idempotencyKey: KEY, taskId: made.taskId }, () => {
      throw new Error('create must not be called')
    })
    expect(completed).toBe(true)
    expect(types(values)).toEqual(['completed'])
    expect(values[0]!.taskId).toBe(made.taskId)
    expect(states).toEqual([])
    expect(posts(sim)).toHaveLength(1)
  })
})

describe('resumeTask$ subscribed again (a retry)', () => {
  it('follows the task its first subscription made, from what it saved, and never creates a second', async () => {
    const sim = await simulator()
    const client = clientOf(sim)
    let creations = 0
    // The creation goes through; then the follow breaks (a deadline, a worker's own timeout).
    const make = (key: string) => {
      creations++
      return concat(create(client)(key).pipe(take(1)), throwError(() => new Error('the follow broke')))
    }
    const saves: SavedTask[] = []
    const events = await collect(
      resumeTask$(client, endpoints.t2vSpark, {}, make, { save: (state) => void saves.push(state) }).pipe(retry(1)),
    )
    expect(events.completed).toBe(true)
    expect(creations).toBe(1)
    expect(sim.tasks).toHaveLength(1)
    expect(posts(sim)).toHaveLength(1)
    expect(saves.map((state) => Object.keys(state).join('+'))).toEqual(['idempotencyKey', 'idempotencyKey+taskId'])
    expect(types(events.values).at(-1)).toBe('completed')
  })
})

describe('resumeTask$ refuses what it cannot keep its promise with', () => {
  it('a create that does not send the key it is given: the task id is saved, then InvalidRequestError', async () => {
    const sim = await simulator()
    const client = clientOf(sim)
    const { error, states } = await resume(sim, client, {}, () => textToVideo$(client, body), KEY)
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toContain('must send the Idempotency-Key it is given')
    expect(states).toEqual([{ idempotencyKey: KEY }, { idempotencyKey: KEY, taskId: sim.tasks[0]!.id }])
  })

  it.each([
    ['a saved state that is not an object', null, create],
    ['a saved key that is not a header value', { idempotencyKey: 'two words' }, create],
    ['a saved task id that is not a UUID', { taskId: '../x' }, create],
    ['a create that is not a function', {}, () => 'POST' as never],
  ])('%s, before anything is sent', async (_, saved, make) => {
    const sim = await simulator()
    const client = clientOf(sim)
    const error = await errorOf(resumeTask$(client, endpoints.t2vSpark, saved as SavedTask, make(client)))
    expect(isInvalidRequestError(error)).toBe(true)
    expect(sim.requests).toHaveLength(0)
  })
})
