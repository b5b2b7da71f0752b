import { describe, expect, it } from 'vitest'
import { createClient, type Client } from '../../src/client.js'
import { isGatewayError } from '../../src/errors/GatewayError.js'
import { isTaskCreationUnknownError } from '../../src/errors/TaskCreationUnknownError.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { responses$ } from '../../src/responses$.js'
import { textToVideo$ } from '../../src/tasks$.js'
import type { ResponseStreamEvent } from '../../src/validation/streamEvents.js'
import type { Response } from '../../src/validation/response.js'
import { collect, type Outcome } from '../helpers/collect.js'
import { KEY } from '../helpers/fixtures.js'
import { fragmentsOf } from '../helpers/secrets.js'
import { within } from '../helpers/server.js'
import { CREATE_FAULTS, READ_FAULTS, seededPlan, startFaultGateway, type FaultGateway } from './gateway.js'

// Many concurrent calls through a gateway that faults about 10 % of
// requests (seeded: the same faults on every run), with short timings. What
// must hold whatever the faults: every subscription ends; no task is created
// twice; no task is created without its id or its Idempotency-Key reaching
// the caller (and, against a gateway that honours the key with
// idempotentCreate, none at all); no follow is ended by a transient fault;
// every stream that completes has every event once, in order.

// Seeds chosen so that every kind of fault is injected at least once (checked below).
const TASKS = 240
const RESPONSES_PER_MODE = 60
const RATE = 0.1
/** Calls that meet pings and drips wait this long for an event; the rest, whose faults are not about time, get more room under load. */
const SILENCE_MS = 1_500
const TIMEOUT_MS = 5_000

const STREAM_FAULTS = ['503', '429', 'mid-event-close', 'reset-mid-stream', 'pings-forever', 'drip', 'endless-line'] as const
const RESUMABLE_FAULTS = ['503', '429', 'mid-event-close', 'reset-mid-stream'] as const
const PLAIN_FAULTS = ['503', '429', 'huge-body', 'endless-body'] as const

/** The kind of response call `r{i}` is: plain, streamed, background-streamed, background-streamed without sequence numbers. */
const modeOf = (input: string) => (['plain', 'stream', 'background', 'unnumbered'] as const)[Number(input.slice(1)) % 4]!

function plan(seed: string) {
  return seededPlan(
    seed,
    RATE,
    {
      create: CREATE_FAULTS,
      read: READ_FAULTS,
      response: (input) => ({ plain: PLAIN_FAULTS, stream: STREAM_FAULTS, background: RESUMABLE_FAULTS, unnumbered: STREAM_FAULTS })[modeOf(input)],
      replay: ['mid-event-close', 'reset-mid-stream'],
    },
    // Within every client budget: retries of a refused creation (2), poll failures in a row (5), reconnections (3).
    { create: 2, read: 3, response: 2, replay: 2 },
  )
}

function clientFor(gateway: FaultGateway, idempotentCreate: boolean, timeoutMs = TIMEOUT_MS): Client {
  return createClient({
    baseUrl: gateway.url,
    apiKey: KEY,
    idempotentCreate,
    timeoutMs,
    maxEventBytes: 64 * 1024,
    maxBodyBytes: 256 * 1024,
    retry: { count: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 },
    taskPoll: { initialDelayMs: 5, factor: 1, maxDelayMs: 5, jitter: 0 },
    resumeAttempts: 3,
    taskDeadlineMs: 60_000,
  })
}

const failsOnPurpose = (prompt: string) => prompt.endsWith('7')

interface TaskRun {
  readonly prompt: string
  readonly outcome: Outcome<TaskEvent>
}

async function runTasks(client: Client): Promise<TaskRun[]> {
  const prompts = Array.from({ length: TASKS }, (_, i) => `a red kite, take ${i}`)
  return Promise.all(prompts.map(async (prompt) => ({ prompt, outcome: await collect(textToVideo$(client, { prompt })) })))
}

/** What the caller learnt of the tasks: ids and keys, from `created` events and from errors. */
function known(runs: TaskRun[]): { ids: Set<string>; keys: Set<string>; createdIds: Set<string> } {
  const ids = new Set<string>()
  const keys = new Set<string>()
  const createdIds = new Set<string>()
  for (const { outcome } of runs) {
    for (const e of outcome.values) {
      if (e.type !== 'created') continue
      ids.add(e.taskId.toLowerCase())
      createdIds.add(e.taskId.toLowerCase())
      keys.add(e.idempotencyKey)
    }
    const error = outcome.error as { taskId?: string; idempotencyKey?: string } | undefined
    if (error?.taskId) ids.add(error.taskId.toLowerCase())
    if (error?.idempotencyKey) keys.add(error.idempotencyKey)
  }
  return { ids, keys, createdIds }
}

/** Problems with the follows: any end but completed (or the failure the gateway meant), statuses out of order, another task's URL. */
function followProblems(runs: TaskRun[], gateway: FaultGateway): string[] {
  const problems: string[] = []
  const byId = new Map(gateway.tasks.map((t) => [t.id, t]))
  for (const { prompt, outcome } of runs) {
    const types = outcome.values.map((e) => e.type)
    if (!types.includes('created')) continue
    const expected = failsOnPurpose(prompt) ? 'TaskFailedError' : 'completed'
    const ended = outcome.completed ? 'completed' : (outcome.error as Error).name
    if (ended !== expected) problems.push(`${prompt}: follow ended in ${ended}: ${(outcome.error as Error | undefined)?.message}`)
    const ranks = types.slice(1).map((t) => ['pending', 'processing', 'completed'].indexOf(t))
    if (ranks.some((r, i) => r < 0 || (i > 0 && r <= ranks[i - 1]!))) problems.push(`${prompt}: statuses ${types.join(', ')}`)
    const done = outcome.values.find((e) => e.type === 'completed')
    if (done?.type === 'completed' && done.urls[0] !== `https://cdn.test/${byId.get(done.taskId)?.id}.mp4`) problems.push(`${prompt}: another task's URL ${done.urls[0]}`)
  }
  return problems
}

function duplicates(gateway: FaultGateway): string[] {
  const count = new Map<string, number>()
  for (const t of gateway.tasks) {
    count.set(`prompt ${t.prompt}`, (count.get(`prompt ${t.prompt}`) ?? 0) + 1)
    if (t.key) count.set(`key ${t.key}`, (count.get(`key ${t.key}`) ?? 0) + 1)
  }
  return [...count].filter(([, n]) => n > 1).map(([what, n]) => `${what} created ${n} times`)
}

/** Errors that are not rxgate's, or that hold a piece of the key. */
function untypedOrLeaking(errors: unknown[]): string[] {
  const fragments = fragmentsOf(KEY)
  return errors.flatMap((e) => {
    if (!isGatewayError(e)) return [`untyped: ${String(e)}`]
    const text = `${e.message} ${e.stack} ${JSON.stringify(e)}`
    return fragments.some((f) => text.includes(f)) ? [`${e.name} holds the key`] : []
  })
}

interface ResponseRun {
  readonly input: string
  readonly outcome: Outcome<ResponseStreamEvent | Response>
}

/** Streams that are not resumed go through `streams`, whose short silence ends pings and drips in time; the rest through `client`. */
async function runResponses(client: Client, streams: Client): Promise<ResponseRun[]> {
  const inputs = Array.from({ length: RESPONSES_PER_MODE * 4 }, (_, i) => `r${i}`)
  return Promise.all(
    inputs.map(async (input) => {
      const mode = modeOf(input)
      const via = mode === 'stream' || mode === 'unnumbered' ? streams : client
      const body = { model: 'm', input, stream: mode !== 'plain', background: mode === 'background' || mode === 'unnumbered', ...(mode === 'unnumbered' ? { metadata: { unnumbered: 'true' } } : {}) }
      return { input, outcome: await collect(responses$(via, body) as import('rxjs').Observable<ResponseStreamEvent | Response>) }
    }),
  )
}

/** Problems with the response calls: lost or repeated text, or an ending their fault does not explain. */
function responseProblems(runs: ResponseRun[]): string[] {
  const problems: string[] = []
  for (const { input, outcome } of runs) {
    const mode = modeOf(input)
    const expected = `text of ${input}`
    if (outcome.completed) {
      const text =
        mode === 'plain'
          ? (outcome.values[0] as Response).output_text
          : (outcome.values as ResponseStreamEvent[])
              .filter((e) => e.type === 'response.output_text.delta')
              .map((e) => (e as { delta: string }).delta)
              .join('')
      if (text !== expected) problems.push(`${input} (${mode}): text ${JSON.stringify(text)}`)
      const seqs = (outcome.values as ResponseStreamEvent[]).map((e) => e.sequence_number).filter((s) => s !== undefined)
      if (seqs.some((s, i) => i > 0 && s! <= seqs[i - 1]!)) problems.push(`${input}: sequence ${seqs.join(',')}`)
      continue
    }
    const error = outcome.error as Error & { reason?: string; limit?: string }
    const allowed =
      mode === 'plain'
        ? error.name === 'PayloadTooLargeError' && error.limit === 'maxBodyBytes'
        : mode === 'background'
          ? false // every fault of a resumable stream is resumed
          : (error.name === 'TimeoutError' && error.reason === 'silence') || (error.name === 'PayloadTooLargeError' && error.limit === 'maxEventBytes') || error.name === 'ConnectionError'
    if (!allowed) problems.push(`${input} (${mode}) ended in ${error.name} after ${outcome.values.length} values: ${error.message}`)
  }
  return problems
}

describe('under ~10 % injected faults', () => {
  it('a gateway that ignores Idempotency-Key: every call ends, no task created twice, none unknown to the caller, no follow ended by a transient fault', async () => {
    const gateway = await startFaultGateway({ plan: plan('ignores-key-24'), failTask: failsOnPurpose })
    try {
      const client = clientFor(gateway, false)
      const responseRuns = runResponses(client, clientFor(gateway, false, SILENCE_MS))
      const [responses, tasks] = await within(Promise.all([responseRuns, runTasks(client)]), 20_000, 'every subscription ending')

      const { ids, keys } = known(tasks)
      const orphans = gateway.tasks.filter((t) => !ids.has(t.id) && !(t.key && keys.has(t.key)))
      const endings = tasks.map(({ outcome }) => (outcome.completed ? 'completed' : (outcome.error as Error).name))
      expect({
        duplicates: duplicates(gateway),
        orphans: orphans.map((t) => t.prompt),
        follows: followProblems(tasks, gateway),
        responses: responseProblems(responses),
        errors: untypedOrLeaking([...tasks, ...responses].map((r) => r.outcome.error).filter((e) => e !== undefined)),
        endings: [...new Set(endings)].sort(),
      }).toEqual({ duplicates: [], orphans: [], follows: [], responses: [], errors: [], endings: ['TaskCreationUnknownError', 'TaskFailedError', 'completed'] })

      // The unknown creations say which key they were sent with, and the id when a reply showed one.
      for (const { outcome } of tasks) {
        const error = outcome.error
        if (!isTaskCreationUnknownError(error)) continue
        const made = gateway.tasks.find((t) => t.key === error.idempotencyKey)
        if (error.taskId !== undefined) expect(error.taskId).toBe(made?.id)
      }
      // The faults did happen, each kind of them.
      const injected = [...gateway.injected.keys()]
      for (const f of CREATE_FAULTS) expect(injected).toContain(`create ${f}`)
      for (const f of READ_FAULTS) expect(injected).toContain(`read ${f}`)
      for (const f of [...STREAM_FAULTS, ...PLAIN_FAULTS]) expect(injected).toContain(`response ${f}`)
    } finally {
      await gateway.close()
    }
  })

  it('a gateway that honours Idempotency-Key, with idempotentCreate: every task is created once and its id reaches the caller; every follow completes', async () => {
    const gateway = await startFaultGateway({ plan: plan('honours-key-0'), honourIdempotencyKey: true, failTask: failsOnPurpose })
    try {
      const client = clientFor(gateway, true)
      const tasks = await within(runTasks(client), 20_000, 'every subscription ending')
      const { createdIds } = known(tasks)
      const endings = tasks.map(({ prompt, outcome }) => `${failsOnPurpose(prompt) ? 'meant to fail' : 'meant to finish'}: ${outcome.completed ? 'completed' : (outcome.error as Error).name}`)
      expect({
        duplicates: duplicates(gateway),
        orphans: gateway.tasks.filter((t) => !createdIds.has(t.id)).map((t) => t.prompt),
        follows: followProblems(tasks, gateway),
        errors: untypedOrLeaking(tasks.map((r) => r.outcome.error).filter((e) => e !== undefined)),
        endings: [...new Set(endings)].sort(),
      }).toEqual({ duplicates: [], orphans: [], follows: [], errors: [], endings: ['meant to fail: TaskFailedError', 'meant to finish: completed'] })
      expect(gateway.tasks).toHaveLength(TASKS)
      expect([...gateway.injected.keys()].filter((k) => k.startsWith('create '))).toHaveLength(CREATE_FAULTS.length)
    } finally {
      await gateway.close()
    }
  })
})
