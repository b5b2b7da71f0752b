import { firstValueFrom } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import {
  ConnectionError,
  TaskCreationUnknownError,
  endpoints,
  HttpError,
  outputText,
  TimeoutError,
  ValidationError,
  type ResponseStreamEvent,
} from '../../src/index.js'
import { all, errorOf, gatewayFor, MODEL, observe, requestsTo, simulator } from './helpers.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'
const deltasOf = (events: readonly ResponseStreamEvent[]) => events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')

describe('faults end to end', () => {
  const options = {}
  describe('429 with Retry-After', () => {
    it('a GET is retried after the Retry-After delay, not sooner', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const r = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'hi' }))
      sim.setFaults({ rateLimit: { every: 2, retryAfter: '1' } })
      await firstValueFrom(gateway.retrieveResponse$(r.id)) // request 1 of the plan: answered
      const read = await firstValueFrom(gateway.retrieveResponse$(r.id)) // request 2: 429, then retried
      expect(read.status).toBe('completed')
      const gets = requestsTo(sim, 'GET', `${RESPONSES}/${r.id}`)
      expect(gets.map((g) => g.status)).toEqual([200, 429, 200])
      // The retry waited out the Retry-After (1 s), not the 5 ms backoff of this gateway.
      expect(gets[2]!.at - gets[1]!.at).toBeGreaterThanOrEqual(990)
    })

    it('a Retry-After beyond maxRetryAfterMs is not waited out: HttpError rate_limit at once, with retryAfterMs', async () => {
      const sim = await simulator({ faults: { rateLimit: { every: 1, retryAfter: '120' } } })
      const gateway = gatewayFor(sim, options)
      const started = Date.now()
      const err = await errorOf(gateway.retrieveResponse$('resp_any'))
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(err).toBeInstanceOf(HttpError)
      expect(err).toMatchObject({ status: 429, kind: 'rate_limit', retryAfterMs: 120_000, code: 'rate_limit_exceeded' })
      expect(sim.requests).toHaveLength(1)
    })

    it('a creation POST refused with 429 is sent again (the gateway certainly did not create it)', async () => {
      const sim = await simulator({ faults: { rateLimit: { every: 2, retryAfter: '0' } } })
      const gateway = gatewayFor(sim, options)
      await firstValueFrom(gateway.responses$({ model: MODEL, input: 'first' })) // request 1
      const r = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'second' })) // request 2: 429, then 3
      expect(r.status).toBe('completed')
      expect(requestsTo(sim, 'POST', RESPONSES).map((p) => p.status)).toEqual([200, 429, 200])
    })

    it('a Retry-After given as an HTTP date is honoured', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      sim.setFaults({ rateLimit: { every: 1, retryAfter: new Date(Date.now() + 1_500).toUTCString() } })
      const o = observe(gateway.retrieveResponse$('resp_any'))
      await vi.waitFor(() => expect(sim.requests).toHaveLength(1))
      sim.setFaults({}) // the retry is answered: 404, as the id is unknown
      const err = (await o.done).error
      expect(err).toMatchObject({ status: 404 })
      const [first, second] = sim.requests
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(400) // an HTTP date has 1 s resolution: at least 0.5 s was left
    })
  })

  describe('5xx', () => {
    it('a GET answered 500 is retried and succeeds', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const r = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'hi' }))
      sim.setFaults({ serverErrors: { every: 2 } })
      await firstValueFrom(gateway.retrieveResponse$(r.id))
      const read = await firstValueFrom(gateway.retrieveResponse$(r.id))
      expect(read.id).toBe(r.id)
      expect(requestsTo(sim, 'GET', `${RESPONSES}/${r.id}`).map((g) => g.status)).toEqual([200, 500, 200])
    })

    it('a GET answered 502 every time: retried `count` times, then HttpError kind server', async () => {
      const sim = await simulator({ faults: { serverErrors: { every: 1, status: 502 } } })
      const gateway = gatewayFor(sim, { ...options, retry: { count: 3, baseDelayMs: 5 } })
      const err = await errorOf(gateway.retrieveResponse$('resp_x'))
      expect(err).toMatchObject({ status: 502, kind: 'server', method: 'GET' })
      expect(sim.requests.map((r) => r.status)).toEqual([502, 502, 502, 502])
    })

    it('a creation POST answered 500 is not sent again (it may have created a paid response)', async () => {
      const sim = await simulator({ faults: { serverErrors: { every: 1 } } })
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'hi' }))
      expect(err).toMatchObject({ status: 500, kind: 'server', method: 'POST' })
      expect(requestsTo(sim, 'POST', RESPONSES)).toHaveLength(1)
    })

    it('a task creation POST answered 500 is not sent again: one render at most, and the caller learns the task may exist', async () => {
      const sim = await simulator({ faults: { serverErrors: { every: 1 } } })
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.textToVideo$({ prompt: 'paid render' }))
      expect(err).toBeInstanceOf(TaskCreationUnknownError)
      expect(err).toMatchObject({ endpoint: endpoints.t2vSpark, cause: { status: 500, kind: 'server' } })
      expect((err as TaskCreationUnknownError).idempotencyKey).toBe(sim.requests[0]!.idempotencyKey)
      expect(requestsTo(sim, 'POST', endpoints.t2vSpark.createPath!)).toHaveLength(1)
      expect(sim.requests).toHaveLength(1)
    })

    it('a creation POST answered 503 is sent again (the gateway refused it)', async () => {
      const sim = await simulator({ faults: { serverErrors: { every: 1, status: 503 } } })
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.createTask$(endpoints.videoOne, { prompt: 'x' }))
      expect(err).toMatchObject({ status: 503, kind: 'server' })
      expect(requestsTo(sim, 'POST', endpoints.videoOne.createPath!)).toHaveLength(3) // 1 + the default 2 retries
    })

    it('5xx replies while a task is polled do not end the task', async () => {
      const sim = await simulator({ timeScale: { pendingMs: 80, processingMs: 80 } })
      const gateway = gatewayFor(sim, options)
      sim.setFaults({ serverErrors: { every: 2 } })
      const events = await all(gateway.textToVideo$({ prompt: 'survive' }))
      expect(events.at(-1)!.type).toBe('completed')
      const reads = requestsTo(sim, 'GET', endpoints.t2vSpark.resultPath)
      expect(reads.some((r) => r.status === 500)).toBe(true)
      expect(requestsTo(sim, 'POST', endpoints.t2vSpark.createPath!)).toHaveLength(1)
    })
  })

  describe('latency beyond timeoutMs', () => {
    it('POST: TimeoutError, the request aborted, not sent again', async () => {
      const sim = await simulator({ faults: { latencyMs: 400 } })
      const gateway = gatewayFor(sim, { ...options, timeoutMs: 80 })
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'slow' }))
      expect(err).toBeInstanceOf(TimeoutError)
      expect(err).toMatchObject({ method: 'POST', path: RESPONSES, timeoutMs: 80 })
      await vi.waitFor(() => expect(sim.requests[0]?.aborted).toBe(true))
      expect(sim.requests).toHaveLength(1)
    })

    it('GET: TimeoutError after the retries, each attempt aborted', async () => {
      const sim = await simulator({ faults: { latencyMs: 400 } })
      const gateway = gatewayFor(sim, { ...options, timeoutMs: 80 })
      const err = await errorOf(gateway.retrieveResponse$('resp_slow'))
      expect(err).toBeInstanceOf(TimeoutError)
      expect(sim.requests).toHaveLength(3)
      await vi.waitFor(() => expect(sim.requests.every((r) => r.aborted && r.status === 0)).toBe(true))
    })

    it('latency under timeoutMs is only slower', async () => {
      const sim = await simulator({ faults: { latencyMs: 50 } })
      const gateway = gatewayFor(sim, { ...options, timeoutMs: 1_000 })
      const r = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'slow' }))
      expect(r.status).toBe('completed')
    })
  })

  describe('a stream reset by the server', () => {
    it('not in the background: ConnectionError after the events that arrived, not resumed or resent', async () => {
      const sim = await simulator({ faults: { resetStreamAfter: 5 } })
      const gateway = gatewayFor(sim, options)
      const o = await observe(gateway.responses$({ model: MODEL, input: 'cut', stream: true })).done
      expect(o.error).toBeInstanceOf(ConnectionError)
      expect(o.error).toMatchObject({ method: 'POST', sent: true })
      expect(o.values.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4])
      expect(sim.requests).toHaveLength(1)
    })

    it('right after the headers: ConnectionError, the POST not sent again', async () => {
      const sim = await simulator({ faults: { resetStreamAfter: 0 } })
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'cut', stream: true }))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(requestsTo(sim, 'POST', RESPONSES)).toHaveLength(1)
    })

    it('in the background: resumed with starting_after, every event exactly once, the same text', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const body = { model: MODEL, input: 'resume me', background: true, store: true, stream: true } as const
      const clean = await all(gateway.responses$(body))
      const cleanText = deltasOf(clean)

      sim.setFaults({ resetStreamAfter: 4 })
      const before = sim.requests.length
      const events = await all(gateway.responses$(body))
      const seq = events.map((e) => e.sequence_number!)
      expect(seq).toEqual(clean.map((e) => e.sequence_number))
      expect(seq).toEqual(Array.from({ length: seq.length }, (_, i) => i)) // strictly increasing, no gap
      expect(events.map((e) => e.type)).toEqual(clean.map((e) => e.type))
      expect(deltasOf(events)).toBe(cleanText)
      const text = await firstValueFrom(gateway.responses$(body).pipe(outputText()))
      expect(text).toBe(cleanText)

      // The replays asked for the events after the last one seen, each time further on.
      const replays = sim.requests.slice(before).filter((r) => r.method === 'GET')
      expect(replays.length).toBeGreaterThanOrEqual(Math.floor(clean.length / 4) - 1)
      const afters = replays.map((r) => Number(new URLSearchParams(r.search).get('starting_after')))
      const firstRun = afters.slice(0, Math.ceil(clean.length / 4) - 1)
      expect(firstRun[0]).toBe(3)
      expect(firstRun.every((n, i) => i === 0 || n === firstRun[i - 1]! + 4)).toBe(true)
    })

    it('a retrieval stream is resumed the same way', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const r = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'replay', background: true, store: true }))
      const clean = await all(gateway.retrieveResponse$(r.id, { stream: true, startingAfter: 2 }))
      sim.setFaults({ resetStreamAfter: 3 })
      const events = await all(gateway.retrieveResponse$(r.id, { stream: true, startingAfter: 2 }))
      expect(events.map((e) => e.sequence_number)).toEqual(clean.map((e) => e.sequence_number))
      expect(events[0]!.sequence_number).toBe(3)
      expect(deltasOf(events)).toBe(deltasOf(clean))
    })
  })

  describe('a malformed frame', () => {
    it('ends the stream in ValidationError carrying the raw frame; nothing is resent', async () => {
      const sim = await simulator({ faults: { malformedFrameAt: 3 } })
      const gateway = gatewayFor(sim, options)
      const o = await observe(gateway.responses$({ model: MODEL, input: 'bad frame', stream: true })).done
      expect(o.values.map((e) => e.type)).toEqual(['response.created', 'response.in_progress'])
      expect(o.error).toBeInstanceOf(ValidationError)
      const payload = (o.error as ValidationError).payload
      expect(typeof payload).toBe('string')
      expect(payload).toContain('oops')
      expect(payload).toContain('"type": "response.output_item.added"')
      expect(sim.requests).toHaveLength(1)
    })

    it('in a background stream, a malformed frame is read past by resuming after the last good event: each event once, in order', async () => {
      const sim = await simulator({ faults: { malformedFrameAt: 4 } })
      const gateway = gatewayFor(sim, options)
      const events = await all(gateway.responses$({ model: MODEL, input: 'bad', background: true, store: true, stream: true }))
      const seqs = events.map((e) => e.sequence_number)
      expect(seqs).toEqual(seqs.map((_, i) => i))
      expect(events.at(-1)!.type).toBe('response.completed')
      const replays = requestsTo(sim, 'GET', RESPONSES)
      expect(replays.length).toBeGreaterThan(0)
      expect(replays[0]!.search).toMatch(/starting_after=2(&|$)/) // the three good frames before the bad one were kept
    })
  })
})
