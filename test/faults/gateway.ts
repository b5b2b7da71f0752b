import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

// A fault-injecting gateway on a loopback port, written from the interface
// (SPEC.md and GATEWAY-NOTES.md) alone: it imports nothing of the client. It
// serves text-to-video creation and task reads, and response creation
// (plain, streamed, background-streamed with replay after `starting_after`),
// and injects the faults a hostile network and a buggy gateway produce. It
// records every task it creates, with the Idempotency-Key it came with, so a
// test can count the tasks created twice and the tasks the caller never learnt of.

export const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
export const RESPONSES = '/vendors/vendor-a/v1/responses'

/** What the gateway does to a task creation. */
export type CreateFault =
  | 'reset-before' // the connection drops before the task is made
  | 'reset-after' // the task is made, then the connection drops
  | 'not-json-202' // the task is made; the 202 is not JSON
  | 'html-202' // the task is made; the 202 is a proxy's HTML page
  | 'cut-202' // the task is made; the 202 is cut short after the id
  | '500' // the task is made; the gateway answers 500
  | '502' // nothing is made; 502 with Retry-After
  | '503' // nothing is made; 503 with Retry-After
  | '429' // nothing is made; a rate limit with retry-after-ms

/** What the gateway does to a read of a task. */
export type ReadFault = 'not-json' | 'wrong-shape' | 'other-id' | 'html' | 'backwards' | '500' | '429' | 'reset'

/** What the gateway does to a response creation or a replay. */
export type ResponseFault =
  | '503' // refused, Retry-After
  | '429' // refused, retry-after-ms
  | 'huge-body' // a JSON reply of 64 MiB by its content-length
  | 'endless-body' // a chunked JSON reply that never ends
  | 'mid-event-close' // the stream closes cleanly in the middle of an event
  | 'reset-mid-stream' // the connection drops in the middle of the stream
  | 'pings-forever' // after the first events, only `: ping` comments
  | 'drip' // after the first events, one byte of an event every 20 ms
  | 'endless-line' // after the first events, a data line that never ends

export const CREATE_FAULTS: readonly CreateFault[] = ['reset-before', 'reset-after', 'not-json-202', 'html-202', 'cut-202', '500', '502', '503', '429']
export const READ_FAULTS: readonly ReadFault[] = ['not-json', 'wrong-shape', 'other-id', 'html', 'backwards', '500', '429', 'reset']

/** Decides the fault of attempt `n` (1-based) of one operation, named by `key`; undefined for none. */
export type FaultPlan = (kind: 'create' | 'read' | 'response' | 'replay', key: string, n: number) => string | undefined

export interface FaultGatewayOptions {
  readonly plan: FaultPlan
  /** Same Idempotency-Key and body → the same task, nothing created again. */
  readonly honourIdempotencyKey?: boolean
  /** Tasks whose prompt this says are to fail end in `failed` (3001). */
  readonly failTask?: (prompt: string) => boolean
}

export interface CreatedTask {
  readonly id: string
  readonly key: string | undefined
  readonly prompt: string
  reads: number
  /** The furthest status reported. */
  reported: number
}

export interface FaultGateway {
  readonly url: string
  /** Every task made, in order. */
  readonly tasks: CreatedTask[]
  /** Faults injected, by name. */
  readonly injected: Map<string, number>
  /** Requests received. */
  readonly requests: () => number
  /** Bytes written by endless replies (bodies and lines), in all, once their connections closed. */
  readonly endlessBytes: () => number
  close(): Promise<void>
}

/** A stable, evenly spread number in [0, 1) for a string. */
export function chance(text: string): number {
  return createHash('sha1').update(text).digest().readUInt32BE(0) / 2 ** 32
}

/** A seeded plan: each attempt of each operation is faulted with probability `rate`, never more than `maxInARow` attempts in a row. */
export function seededPlan(seed: string, rate: number, faults: { create: readonly string[]; read: readonly string[]; response: (key: string) => readonly string[]; replay: readonly string[] }, maxInARow: { create: number; read: number; response: number; replay: number }): FaultPlan {
  const inARow = new Map<string, number>()
  return (kind, key, n) => {
    const op = `${kind}:${key}`
    const row = inARow.get(op) ?? 0
    const roll = chance(`${seed}:${op}:${n}`)
    const list = kind === 'response' ? faults.response(key) : faults[kind]
    if (row >= maxInARow[kind] || roll >= rate || list.length === 0) {
      inARow.set(op, 0)
      return undefined
    }
    inARow.set(op, row + 1)
    return list[Math.floor(chance(`${seed}:${op}:${n}:which`) * list.length)]
  }
}

/** A UUID (v4 layout) made from `text`: the same text, the same id, so that faults keyed by task id repeat from run to run. */
export function uuidFrom(text: string): string {
  const hex = Array.from({ length: 4 }, (_, i) => Math.floor(chance(`${text}/${i}`) * 2 ** 32).toString(16).padStart(8, '0')).join('')
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const iso = (ms: number) => new Date(ms).toISOString()
const STATUS = ['pending', 'processing', 'completed'] as const

export async function startFaultGateway(options: FaultGatewayOptions): Promise<FaultGateway> {
  const tasks: CreatedTask[] = []
  const byId = new Map<string, CreatedTask>()
  const byKey = new Map<string, CreatedTask>()
  const attempts = new Map<string, number>()
  const injected = new Map<string, number>()
  const responses = new Map<string, string[]>()
  /** How many things were made from each name: ids are made from the name and this count. */
  const made = new Map<string, number>()
  const nextId = (name: string) => {
    const n = (made.get(name) ?? 0) + 1
    made.set(name, n)
    return uuidFrom(`${name}#${n}`)
  }
  const sockets = new Set<Socket>()
  let requests = 0
  let endlessBytes = 0

  const fault = (kind: 'create' | 'read' | 'response' | 'replay', key: string): string | undefined => {
    const op = `${kind}:${key}`
    const n = (attempts.get(op) ?? 0) + 1
    attempts.set(op, n)
    const f = options.plan(kind, key, n)
    if (f) injected.set(`${kind} ${f}`, (injected.get(`${kind} ${f}`) ?? 0) + 1)
    return f
  }

  const server = http.createServer((req, res) => {
    requests++
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      res.on('error', () => {})
      try {
        if (req.method === 'POST' && url.pathname === T2V) return create(req, res, body)
        if (req.method === 'GET' && url.pathname.startsWith(`${T2V}/`)) return read(res, url.pathname.slice(T2V.length + 1))
        if (req.method === 'POST' && url.pathname === RESPONSES) return respond(res, body)
        if (req.method === 'GET' && url.pathname.startsWith(`${RESPONSES}/`)) return replay(res, url.pathname.slice(RESPONSES.length + 1), url.searchParams)
        json(res, 404, { detail: 'Not Found' })
      } catch (err) {
        json(res, 500, { detail: String(err) })
      }
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
    res.end(text)
  }

  function reset(req: http.IncomingMessage | http.ServerResponse): void {
    ;(req as { socket: Socket | null }).socket?.destroy()
  }

  function make(prompt: string, key: string | undefined): CreatedTask {
    if (options.honourIdempotencyKey && key) {
      const same = byKey.get(key)
      if (same && same.prompt === prompt) return same
    }
    const task: CreatedTask = { id: nextId(prompt), key, prompt, reads: 0, reported: -1 }
    tasks.push(task)
    byId.set(task.id, task)
    if (key) byKey.set(key, task)
    return task
  }

  function create(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    let prompt: unknown
    try {
      prompt = (JSON.parse(body) as { prompt?: unknown }).prompt
    } catch {
      return json(res, 400, { detail: 'body is not JSON' })
    }
    if (typeof prompt !== 'string' || !prompt || prompt.length > 2000) return json(res, 400, { detail: 'prompt: required, at most 2000 characters' })
    const key = req.headers['idempotency-key'] as string | undefined
    const f = fault('create', prompt) as CreateFault | undefined
    if (f === 'reset-before') return reset(req)
    if (f === '502') return json(res, 502, '<html>Bad Gateway</html>', { 'content-type': 'text/html', 'retry-after': '0.01' })
    if (f === '503') return json(res, 503, { detail: 'overloaded' }, { 'retry-after': '0.01' })
    if (f === '429') return json(res, 429, { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '5' })
    const task = make(prompt, key)
    const now = Date.now()
    const reply = JSON.stringify({ task_info: { id: task.id, created_at: iso(now), updated_at: iso(now) } })
    if (f === 'reset-after') return reset(req)
    if (f === 'not-json-202') return json(res, 202, 'Accepted')
    if (f === 'html-202') return json(res, 202, '<html><body>Accepted</body></html>', { 'content-type': 'text/html' })
    if (f === 'cut-202') return json(res, 202, reply.slice(0, reply.indexOf(task.id) + task.id.length + 20))
    if (f === '500') return json(res, 500, { error: { message: 'upstream error' } })
    json(res, 202, reply)
  }

  function read(res: http.ServerResponse, id: string): void {
    const task = byId.get(id)
    if (!task) return json(res, 404, { detail: 'unknown task id' })
    const f = fault('read', id) as ReadFault | undefined
    const now = Date.now()
    const info = (status: string, taskId = task.id) => ({ id: taskId, status, created_at: iso(now), updated_at: iso(now) })
    if (f === 'not-json') return json(res, 200, '{"task_info":{"id":')
    if (f === 'wrong-shape') return json(res, 200, { task_info: { id: task.id, status: 'exploded' } })
    if (f === 'other-id') return json(res, 200, { task_info: info('completed', uuidFrom(`someone else than ${id}`)), videos: ['https://cdn.test/someone-else.mp4'] })
    if (f === 'html') return json(res, 200, '<html><body>Gateway Timeout</body></html>', { 'content-type': 'text/html' })
    if (f === '500') return json(res, 500, { detail: 'try again' }, { 'retry-after': '0.01' })
    if (f === '429') return json(res, 429, { error: { message: 'slow down' } }, { 'retry-after-ms': '5' })
    if (f === 'reset') return reset(res)
    if (f === 'backwards' && task.reported > 0) return json(res, 200, { task_info: info(STATUS[task.reported - 1]!) })
    const step = Math.min(task.reads++, 2)
    task.reported = Math.max(task.reported, step)
    if (step === 2 && options.failTask?.(task.prompt)) {
      return json(res, 200, { task_info: { ...info('failed'), error: { code: 3001, title: 'Task Execution Error', detail: 'restricted prompt' } } })
    }
    json(res, 200, { task_info: info(STATUS[step]!), ...(step === 2 ? { videos: [`https://cdn.test/${task.id}.mp4`] } : {}) })
  }

  /** The events of response `id` whose text is `text`, framed. */
  function framesOf(id: string, text: string, numbered = true): string[] {
    const response = (status: string) => ({ id, object: 'response', created_at: 1, model: 'm', status, output_text: status === 'completed' ? text : null })
    const events: Record<string, unknown>[] = [
      { type: 'response.created', response: response('queued') },
      ...[...text].map((c) => ({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: c })),
      { type: 'response.completed', response: response('completed') },
    ]
    return events.map((e, i) => `event: ${e.type as string}\ndata: ${JSON.stringify(numbered ? { ...e, sequence_number: i } : e)}\n\n`)
  }

  function startSse(res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    res.flushHeaders()
  }

  /** Writes `chunk` over and over, as fast as the client reads, until the connection closes. */
  function endless(res: http.ServerResponse, chunk: string): void {
    const size = Buffer.byteLength(chunk)
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) endlessBytes += size
      if (!res.destroyed) {
        endlessBytes += size
        res.once('drain', pump)
      }
    }
    pump()
  }

  /** Calls `tick` every `ms` until the connection closes. */
  function every(res: http.ServerResponse, ms: number, tick: () => void): void {
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : tick()), ms)
    res.on('close', () => clearInterval(timer))
  }

  /** Sends `frames`, faulted as `f` says. */
  function stream(res: http.ServerResponse, frames: string[], f: ResponseFault | undefined): void {
    startSse(res)
    const head = frames.slice(0, 3).join('')
    if (f === 'pings-forever') {
      res.write(head)
      return every(res, 20, () => res.write(': ping\n\n'))
    }
    if (f === 'drip') {
      res.write(head)
      const next = frames[3] ?? frames.at(-1)!
      let i = 0
      return every(res, 20, () => res.write(next[i++ % (next.length - 2)]!))
    }
    if (f === 'endless-line') {
      res.write(`${head}data: `)
      return endless(res, 'x'.repeat(16_384))
    }
    if (f === 'mid-event-close') {
      const cut = Math.max(1, Math.floor(frames.length / 2))
      return void res.end(frames.slice(0, cut).join('') + frames[cut]!.slice(0, 30))
    }
    if (f === 'reset-mid-stream') {
      const cut = Math.max(1, Math.floor(frames.length / 2))
      return void res.write(frames.slice(0, cut).join(''), () => reset(res))
    }
    res.end(`${frames.join('')}data: [DONE]\n\n`)
  }

  function respond(res: http.ServerResponse, body: string): void {
    const request = JSON.parse(body) as { input?: string; stream?: boolean; background?: boolean; metadata?: { unnumbered?: string } }
    const input = String(request.input)
    const f = fault('response', input) as ResponseFault | undefined
    if (f === '503') return json(res, 503, { detail: 'overloaded' }, { 'retry-after': '0.01' })
    if (f === '429') return json(res, 429, { error: { message: 'slow down' } }, { 'retry-after-ms': '5' })
    const id = `resp_${nextId(input).replaceAll('-', '')}`
    const text = `text of ${input}`
    if (!request.stream) {
      if (f === 'huge-body') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) })
        return endless(res, ' '.repeat(16_384))
      }
      if (f === 'endless-body') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"id":"')
        return endless(res, 'y'.repeat(16_384))
      }
      return json(res, 200, { id, object: 'response', created_at: 1, model: 'm', status: 'completed', output_text: text, output: [] })
    }
    const frames = framesOf(id, text, request.metadata?.unnumbered !== 'true')
    if (request.background) responses.set(id, frames)
    stream(res, frames, f)
  }

  function replay(res: http.ServerResponse, id: string, query: URLSearchParams): void {
    const frames = responses.get(id)
    if (!frames || query.get('stream') !== 'true') return json(res, 404, { detail: 'unknown response' })
    const after = Number(query.get('starting_after') ?? -1)
    const f = fault('replay', id) as ResponseFault | undefined
    // Replays repeat a few events already delivered, as real ones may: the client drops them.
    stream(res, frames.slice(Math.max(0, after - 1)), f)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    tasks,
    injected,
    requests: () => requests,
    endlessBytes: () => endlessBytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}
