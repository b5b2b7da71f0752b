import type { Histogram, Meter, Span, Tracer } from '@opentelemetry/api'
import { lastValueFrom, toArray } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { openTelemetry } from '../../src/otel/index.js'
import { responses$ } from '../../src/responses$.js'
import { textToVideo$ } from '../../src/tasks$.js'
import type { AttemptTrace, OperationTrace, Telemetry } from '../../src/telemetry.js'
import { waitFor } from '../helpers/server.js'
import { cannedResponse, OTEL_KEY, QUICK_POLLS, quickSim, recorder, recordingProxy, scriptedServer } from './helpers.js'
import { captureReports } from '../helpers/reported.js'

const bug = (): never => {
  throw new Error('telemetry bug')
}

/** A trace whose every method throws, down to the headers of each try. */
const throwingTrace: OperationTrace = {
  attempt: (): AttemptTrace => ({
    get headers(): Record<string, string> {
      return bug()
    },
    answered: bug,
    done: bug,
  }),
  response: bug,
  taskStatus: bug,
  end: bug,
}

/** A trace whose every method returns a rejected promise (an `async` implementation that fails). */
const rejecting = async (): Promise<never> => Promise.reject(new Error('telemetry bug'))
const rejectingTrace = {
  attempt: () => ({ headers: {}, answered: rejecting, done: rejecting }),
  response: rejecting,
  taskStatus: rejecting,
  end: rejecting,
} as unknown as OperationTrace

const { reported, rejections } = captureReports()

/**
 * `telemetry`, counting the calls made of it before each goes on (and fails),
 * so that a test can wait until every try and call was told of its end.
 */
function counted(telemetry: Telemetry) {
  const n = { operations: 0, ends: 0, attempts: 0, dones: 0 }
  const wrapped: Telemetry = {
    operation(info) {
      const trace = telemetry.operation(info)
      n.operations++
      return {
        ...trace,
        attempt(spec, url) {
          const attempt = trace.attempt(spec, url)
          const headers = attempt.headers
          // Counted once it is a try that will be told its end.
          n.attempts++
          return {
            headers,
            answered: (status) => attempt.answered(status),
            done: (error) => (n.dones++, attempt.done(error)),
          }
        },
        response: (response) => trace.response(response),
        taskStatus: (event) => trace.taskStatus(event),
        end: (outcome, error) => (n.ends++, trace.end(outcome, error)),
      }
    },
  }
  return { telemetry: wrapped, n }
}

/** A chat, a stream and a task through a proxy that counts what the gateway received; returns once each was told of its end, and what that reported was reported. */
async function runAll(telemetry: Telemetry) {
  const sim = await quickSim()
  const proxy = await recordingProxy(sim.url)
  const { telemetry: counting, n } = counted(telemetry)
  const client = createClient({ baseUrl: proxy.url, apiKey: OTEL_KEY, ...QUICK_POLLS, telemetry: counting })
  const single = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
  const stream = await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', stream: true }).pipe(toArray()))
  const task: TaskEvent[] = await lastValueFrom(textToVideo$(client, { prompt: 'a kite' }).pipe(toArray()))
  const posts = proxy.seen.filter((s) => s.method === 'POST').map((s) => s.url)
  // A stream's try ends a moment after its last event; reports follow on the next turn.
  await waitFor(() => n.dones === n.attempts && n.ends === n.operations, 2_000, 'every try and call to end')
  await new Promise((resolve) => setTimeout(resolve, 0))
  return { single, stream, task, posts }
}

function expectCallsUnharmed({ single, stream, task, posts }: Awaited<ReturnType<typeof runAll>>): void {
  expect(single.status).toBe('completed')
  expect(stream.at(-1)).toMatchObject({ type: 'response.completed' })
  expect(task.map((e) => e.type)).toEqual(expect.arrayContaining(['created', 'completed']))
  // One creation each: a tracer's failure is never taken for the request's, so nothing is sent again.
  expect(posts).toHaveLength(3)
}

describe('telemetry that fails never breaks, repeats or stalls a call', () => {
  it('a trace whose every method throws: each call completes as it would untraced; the throws are reported as unhandled errors', async () => {
    expectCallsUnharmed(await runAll({ operation: () => throwingTrace }))
    expect(reported.length).toBeGreaterThan(0)
    expect(reported.every((e) => (e as Error).message === 'telemetry bug')).toBe(true)
  })

  it('an operation that throws: the call runs untraced', async () => {
    expectCallsUnharmed(await runAll({ operation: bug }))
    expect(reported).toHaveLength(3)
  })

  it('a trace whose methods return rejected promises: reported like a throw, never an unhandled rejection', async () => {
    expectCallsUnharmed(await runAll({ operation: () => rejectingTrace }))
    expect(reported.length).toBeGreaterThan(0)
    expect(reported.every((e) => (e as Error).message === 'telemetry bug')).toBe(true)
    expect(rejections).toEqual([])
  })

  it('openTelemetry() with a tracer whose spans throw and a meter whose histograms throw: the calls are unharmed', async () => {
    const { tracer: real } = recorder()
    const hostileSpan = (span: Span): Span =>
      new Proxy(span, { get: (target, key, receiver) => (key === 'spanContext' ? Reflect.get(target, key, receiver) : typeof Reflect.get(target, key) === 'function' ? bug : Reflect.get(target, key)) })
    const tracer: Tracer = { startSpan: (...args: Parameters<Tracer['startSpan']>) => hostileSpan(real.startSpan(...args)), startActiveSpan: real.startActiveSpan.bind(real) as Tracer['startActiveSpan'] }
    const histogram = { record: bug } as unknown as Histogram
    const meter = { createHistogram: () => histogram } as unknown as Meter
    expectCallsUnharmed(await runAll(openTelemetry({ tracer, meter })))
    expect(reported.length).toBeGreaterThan(0)
    expect(reported.every((e) => (e as Error).message === 'telemetry bug')).toBe(true)
  })

  it('a single response through a scripted gateway: the value and completion arrive although end() throws', async () => {
    const server = await scriptedServer([{ status: 200, body: cannedResponse() }])
    const client = createClient({ baseUrl: server.url, apiKey: OTEL_KEY, telemetry: { operation: () => ({ ...throwingTrace, attempt: () => ({ headers: {}, answered: () => undefined, done: () => undefined }) }) } })
    const values = await lastValueFrom(responses$(client, { model: 'm', input: 'hi' }).pipe(toArray()))
    expect(values.map((v) => v.id)).toEqual(['resp_canned1'])
    expect(server.seen).toHaveLength(1)
  })
})
