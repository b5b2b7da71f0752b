import { afterEach, expect } from 'vitest'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js'

const running: Simulator[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

/** Starts a simulator that is closed after the current test; streams go 1 ms a frame unless told otherwise. */
export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ streamDelayMs: 1, ...options })
  running.push(sim)
  return sim
}

/** Timing slow enough that real time never moves a task: only `advanceTime` does. */
export const FROZEN = { pendingMs: 60_000, processingMs: 120_000 } as const
export const DONE = FROZEN.pendingMs + FROZEN.processingMs

export const RESPONSES = '/vendors/vendor-a/v1/responses'
export const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
export const VIDEO_ONE = '/vendors/vendor-a/v1/video-one/generation'
export const IMAGE_EDIT = '/vendors/vendor-d/v1/image/edit'

export interface CallInit {
  method?: string
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** `fetch` against the simulator with its token (unless `headers` says otherwise) and a JSON body. */
export function call(sim: Simulator, path: string, init: CallInit = {}): Promise<Response> {
  const headers = { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json', ...init.headers }
  return fetch(`${sim.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  })
}

/** `call` that parses the JSON reply. */
export async function json(sim: Simulator, path: string, init: CallInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await call(sim, path, init)
  return { status: res.status, body: await res.json(), headers: res.headers }
}

/** Creates a task and returns its id. */
export async function createTask(sim: Simulator, path: string, body: Record<string, unknown> = { prompt: 'A fox' }, headers: Record<string, string> = {}): Promise<string> {
  const created = await json(sim, path, { body, headers })
  expect(created.status).toBe(202)
  return created.body.task_info.id
}

/** One server-sent event as written: its `event` name, raw `data`, and the data parsed when it is JSON. */
export interface Frame {
  readonly event: string | undefined
  readonly data: string
  readonly json: any
}

/** Splits an SSE body into frames; comment lines are dropped. */
export function frames(text: string): Frame[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/).filter((line) => line && !line.startsWith(':')))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7)
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')
      let parsed: unknown
      try {
        parsed = JSON.parse(data)
      } catch {
        parsed = undefined
      }
      return { event, data, json: parsed }
    })
}

/** Posts a streamed response request and returns its frames. */
export async function stream(sim: Simulator, body: Record<string, unknown>): Promise<Frame[]> {
  const res = await call(sim, RESPONSES, { body: { model: 'gpt-4o', stream: true, ...body } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
  return frames(await res.text())
}

/** Reads a fetch body until `enough` bytes have come, then aborts; resolves with what came. */
export async function readSome(res: Response, enough: number, abort: AbortController): Promise<Buffer> {
  const reader = res.body!.getReader()
  const parts: Buffer[] = []
  let size = 0
  while (size < enough) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(Buffer.from(value))
    size += value.length
  }
  abort.abort()
  await reader.cancel().catch(() => {})
  return Buffer.concat(parts)
}

/** A strict function tool with a schema of three kinds of field, as the simulator's tool tests offer it. */
export const WEATHER = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather at a place',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', minLength: 2 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['location', 'unit', 'days'],
    additionalProperties: false,
  },
  strict: true,
}
