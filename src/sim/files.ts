import { createHash } from 'node:crypto'
import { SAMPLE_MP4 } from './assets/video.js'
import type { SimEnv } from './env.js'
import { apiError, type Call, type Route } from './http.js'
import { solidPng } from './png.js'
import { IMAGES_PER_TASK, stateAt, URL_VALIDITY_MS, type Task } from './taskModel.js'

/**
 * `GET /files/<taskId>.mp4` and `GET /files/<taskId>-<n>.png`: the result
 * files of completed tasks. Like signed URLs they need no token. A video is
 * a real 1-second H.264 MP4 (single byte ranges supported); image `n` (from
 * 1) is a 64×36 PNG of one colour picked by task id and `n`. A URL answers
 * 410 once an hour of simulated time has passed since the task completed.
 */
export function fileRoutes(env: SimEnv): Route[] {
  return [{ method: 'GET', pattern: /^\/files\/([^/]+)$/, public: true, handle: (call) => serve(call, env) }]
}

function serve(call: Call, env: SimEnv): void {
  const [, id = '', n] = /^([\da-f-]{36})(?:\.mp4|-(\d+)\.png)$/.exec(call.params[0] ?? '') ?? []
  const task = env.tasks.get(id)
  const index = n === undefined ? undefined : Number(n)
  if (!task || !fits(task, index)) throw apiError(404, 'No such file.', 'not_found')
  const now = env.clock.now()
  const state = stateAt(task, now, env.settings.timing)
  if (state.phase !== 'completed') throw apiError(404, 'No such file: the task has not completed.', 'not_found')
  if (now >= state.updatedMs + URL_VALIDITY_MS) {
    throw apiError(410, 'This URL expired: result URLs are valid for 1 hour after the task completed.', 'url_expired')
  }
  if (index === undefined) return sendBytes(call, SAMPLE_MP4, 'video/mp4')
  sendBytes(call, solidPng(64, 36, colourOf(`${id}-${index}`)), 'image/png')
}

function fits(task: Task, index: number | undefined): boolean {
  if (task.model.kind === 'video') return index === undefined
  return index !== undefined && index >= 1 && index <= IMAGES_PER_TASK
}

function colourOf(seed: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = createHash('sha256').update(seed).digest()
  return [r, g, b]
}

/** Sends the bytes, or the one range asked for by a `Range: bytes=a-b` header (206, or 416 when unsatisfiable). */
function sendBytes(call: Call, bytes: Buffer, type: string): void {
  const headers = { 'content-type': type, 'accept-ranges': 'bytes', 'cache-control': 'private, max-age=3600' }
  const [, from = '', to = ''] = /^bytes=(\d*)-(\d*)$/.exec(call.req.headers.range ?? '') ?? []
  if (!from && !to) return reply(call, 200, bytes, headers)
  const size = bytes.length
  const start = from ? Number(from) : Math.max(0, size - Number(to))
  const end = from && to ? Math.min(Number(to), size - 1) : size - 1
  if (start > end) return reply(call, 416, Buffer.alloc(0), { 'content-range': `bytes */${size}` })
  reply(call, 206, bytes.subarray(start, end + 1), { ...headers, 'content-range': `bytes ${start}-${end}/${size}` })
}

function reply(call: Call, status: number, body: Buffer, headers: Record<string, string>): void {
  call.log.status = status
  call.res.writeHead(status, { ...headers, 'content-length': body.length })
  call.res.end(body)
}
