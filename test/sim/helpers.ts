import { afterEach } from 'vitest'
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/index.js'

const running: Simulator[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

/** Starts a simulator that is closed after the current test. */
export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(options)
  running.push(sim)
  return sim
}

/** Timing slow enough that real time never moves a task: only `advanceTime` does. */
export const FROZEN = { pendingMs: 60_000, processingMs: 120_000 } as const

/** `fetch` against the simulator with its token (unless `headers` says otherwise) and a JSON body. */
export function call(sim: Simulator, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  const headers = { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json', ...init.headers }
  return fetch(`${sim.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  })
}

/** `call` that parses the JSON reply. */
export async function json(sim: Simulator, path: string, init: Parameters<typeof call>[2] = {}): Promise<{ status: number; body: any }> {
  const res = await call(sim, path, init)
  return { status: res.status, body: await res.json() }
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

export const RESPONSES = '/vendors/vendor-a/v1/responses'
export const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
