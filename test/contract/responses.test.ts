import { lastValueFrom, take } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  cancelResponse$,
  isResponseFailedError,
  responses$,
  retrieveResponse$,
  type Response,
  type ResponseFailedError,
  type ResponseStreamEvent,
} from '../../src/index.js'
import { startSimulator, type Simulator } from '../../src/sim/index.js'
import { errorOf, outcome, raw, simClient } from './harness.js'
import { RESPONSE_STATUSES, RESPONSES_PATH, RUNNING_RESPONSE_STATUSES } from './spec.js'

// The response endpoints (create, retrieve, cancel), each status produced by
// the simulator and read by the client through its public functions; what
// the client emits is checked against SPEC.md's Response object.

/** Slow enough that real time never moves a background response: only `advanceTime` does. */
const TIMING = { pendingMs: 60_000, processingMs: 120_000 } as const

let sim: Simulator
beforeAll(async () => {
  sim = await startSimulator({ timeScale: TIMING, streamDelayMs: 0 })
})
afterAll(() => sim?.close())

const isInt = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0

/** SPEC "Response object": the fields, their types, the message items and the usage object. */
function expectSpecResponse(r: Response, status: (typeof RESPONSE_STATUSES)[number]): void {
  expect(r.status).toBe(status)
  expect(typeof r.id).toBe('string')
  expect(r.object).toBe('response')
  expect(typeof r.created_at).toBe('number')
  expect(typeof r.model).toBe('string')
  if (status !== 'completed' && status !== 'incomplete') return
  expect(Array.isArray(r.output)).toBe(true)
  const texts: string[] = []
  for (const item of r.output ?? []) {
    if (item.type !== 'message') continue
    expect(typeof item.id).toBe('string')
    expect(typeof item.role).toBe('string')
    expect(Array.isArray(item.content)).toBe(true)
    for (const part of item.content) if (part.type === 'output_text') texts.push(part.text)
  }
  // "Concatenated text of all text outputs"
  if (typeof r.output_text === 'string') expect(r.output_text).toBe(texts.join(''))
  const u = r.usage as Record<string, any>
  expect(isInt(u.prompt_tokens) && isInt(u.completion_tokens) && isInt(u.total_tokens), JSON.stringify(u)).toBe(true)
  expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens)
  for (const key of ['cached_tokens', 'audio_tokens']) expect(isInt(u.prompt_tokens_details[key]), key).toBe(true)
  for (const key of ['reasoning_tokens', 'audio_tokens', 'accepted_prediction_tokens', 'rejected_prediction_tokens']) expect(isInt(u.completion_tokens_details[key]), key).toBe(true)
}

/** Creates a background response raw and returns its id. */
async function background(input = 'Say hi'): Promise<string> {
  const created = await raw(sim, 'POST', RESPONSES_PATH, { model: 'gpt-4o', input, background: true })
  expect(created.status).toBe(200)
  return created.json.id as string
}

describe('create (POST /vendors/vendor-a/v1/responses)', () => {
  it('completed: one Response of the interface, then completion', async () => {
    const { values, error } = await outcome(responses$(simClient(sim), { model: 'gpt-4o', input: 'Say hi' }))
    expect(error).toBeUndefined()
    expect(values).toHaveLength(1)
    expectSpecResponse(values[0]!, 'completed')
    expect(values[0]!.output_text).toBeTruthy()
  })

  it('incomplete: cut by max_output_tokens', async () => {
    const r = await lastValueFrom(responses$(simClient(sim), { model: 'gpt-4o', input: 'Tell me about kites', max_output_tokens: 1 }))
    expectSpecResponse(r, 'incomplete')
  })

  it('failed: ResponseFailedError holding the failed Response and its error', async () => {
    const error = await errorOf(responses$(simClient(sim), { model: 'gpt-4o', input: 'Say hi [fail]' }))
    expect(isResponseFailedError(error), String(error)).toBe(true)
    const failed = error as ResponseFailedError<Response>
    expectSpecResponse(failed.response!, 'failed')
    expect(failed.responseId).toBe(failed.response!.id)
    expect(failed.code).toBe(failed.response!.error?.code)
    expect(failed.message).toContain(String(failed.response!.error?.message))
  })

  it('background: the first snapshot is queued', async () => {
    const first = await lastValueFrom(responses$(simClient(sim), { model: 'gpt-4o', input: 'Say hi', background: true }).pipe(take(1)))
    expectSpecResponse(first, 'queued')
  })
})

describe('retrieve (GET /vendors/vendor-a/v1/responses/{id})', () => {
  it('reads a background response in each status it goes through', async () => {
    const id = await background()
    const client = simClient(sim)
    const read = () => lastValueFrom(retrieveResponse$(client, id))
    expectSpecResponse(await read(), 'queued')
    sim.advanceTime(TIMING.pendingMs)
    expectSpecResponse(await read(), 'in_progress')
    sim.advanceTime(TIMING.processingMs)
    const done = await read()
    expectSpecResponse(done, 'completed')
    expect(done.id).toBe(id)
  })

  it('a failed background response ends in ResponseFailedError', async () => {
    const id = await background('Say hi [fail]')
    sim.advanceTime(TIMING.pendingMs + TIMING.processingMs)
    const error = await errorOf(retrieveResponse$(simClient(sim), id))
    expect(isResponseFailedError(error), String(error)).toBe(true)
    expect((error as ResponseFailedError<Response>).response?.status).toBe('failed')
    expect((error as ResponseFailedError).responseId).toBe(id)
  })

  it('a stored response streamed again after a sequence number: only the later events, ending in response.completed', async () => {
    const created = await raw(sim, 'POST', RESPONSES_PATH, { model: 'gpt-4o', input: 'Say hi' })
    const { values, error } = await outcome(retrieveResponse$(simClient(sim), created.json.id, { stream: true, startingAfter: 1 }))
    expect(error).toBeUndefined()
    expect(values.every((event) => (event.sequence_number ?? -1) > 1)).toBe(true)
    expect(values.at(-1)?.type).toBe('response.completed')
  })
})

describe('cancel (POST /vendors/vendor-a/v1/responses/{id}/cancel)', () => {
  it('cancels a running background response: cancelled, and read back so', async () => {
    const id = await background()
    const client = simClient(sim)
    const cancelled = await lastValueFrom(cancelResponse$(client, id))
    expectSpecResponse(cancelled, 'cancelled')
    expect(cancelled.id).toBe(id)
    expectSpecResponse(await lastValueFrom(retrieveResponse$(client, id)), 'cancelled')
  })

  it('a finished response is returned as it is', async () => {
    const id = await background()
    sim.advanceTime(TIMING.pendingMs + TIMING.processingMs)
    expectSpecResponse(await lastValueFrom(cancelResponse$(simClient(sim), id)), 'completed')
  })
})

describe('polling a background response to its end (responses$ with background: true)', () => {
  it.each([
    { input: 'Say hi', final: 'completed' },
    { input: 'Tell me about kites', final: 'incomplete', max: 1 },
  ])('queued, in_progress, then $final', async ({ input, final, max }) => {
    const statuses: string[] = []
    const client = simClient(sim)
    await new Promise<void>((resolve, reject) => {
      responses$(client, { model: 'gpt-4o', input, background: true, ...(max ? { max_output_tokens: max } : {}) }).subscribe({
        next: (r) => {
          statuses.push(r.status)
          expect(RESPONSE_STATUSES).toContain(r.status)
          if (r.status === 'queued') sim.advanceTime(TIMING.pendingMs)
          if (r.status === 'in_progress') sim.advanceTime(TIMING.processingMs)
        },
        error: reject,
        complete: resolve,
      })
    })
    expect(statuses).toEqual(['queued', 'in_progress', final])
    expect(RUNNING_RESPONSE_STATUSES).not.toContain(statuses.at(-1))
  })

  it('queued, in_progress, then ResponseFailedError', async () => {
    const statuses: string[] = []
    const error = await new Promise<unknown>((resolve) => {
      responses$(simClient(sim), { model: 'gpt-4o', input: 'Say hi [fail]', background: true }).subscribe({
        next: (r) => {
          statuses.push(r.status)
          if (r.status === 'queued') sim.advanceTime(TIMING.pendingMs)
          if (r.status === 'in_progress') sim.advanceTime(TIMING.processingMs)
        },
        error: resolve,
        complete: () => resolve(undefined),
      })
    })
    expect(statuses).toEqual(['queued', 'in_progress'])
    expect(isResponseFailedError(error), String(error)).toBe(true)
    expect((error as ResponseFailedError<Response>).response?.status).toBe('failed')
  })

  it('queued, then cancelled (a final status) when it is cancelled meanwhile', async () => {
    const statuses: string[] = []
    const client = simClient(sim)
    await new Promise<void>((resolve, reject) => {
      responses$(client, { model: 'gpt-4o', input: 'Say hi', background: true }).subscribe({
        next: (r) => {
          statuses.push(r.status)
          if (r.status === 'queued') void raw(sim, 'POST', `${RESPONSES_PATH}/${r.id}/cancel`)
        },
        error: reject,
        complete: resolve,
      })
    })
    expect(statuses).toEqual(['queued', 'cancelled'])
  })
})

describe('streamed creation (stream: true)', () => {
  it('events in order, ending in response.completed whose text is the deltas joined', async () => {
    const { values, error } = await outcome(responses$(simClient(sim), { model: 'gpt-4o', input: 'Say hi', stream: true }))
    expect(error).toBeUndefined()
    const events = values as ResponseStreamEvent[]
    expect(events[0]?.type).toBe('response.created')
    const last = events.at(-1)!
    expect(last.type).toBe('response.completed')
    const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')
    const final = (last as Extract<ResponseStreamEvent, { type: 'response.completed' }>).response
    expectSpecResponse(final, 'completed')
    expect(deltas).toBe(final.output_text)
    const numbers = events.map((e) => e.sequence_number)
    expect(numbers).toEqual([...numbers].sort((a, b) => (a ?? 0) - (b ?? 0)))
  })
})
