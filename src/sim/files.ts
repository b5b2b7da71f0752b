import { createHash } from 'node:crypto'
import { VIDEO_URL_TTL_MS } from '../contract/index.js'
import { apiError } from './apiError.js'
import { SAMPLE_MP4 } from './assets/video.js'
import type { Call, Route } from './call.js'
import type { SimEnv } from './env.js'
import { solidPng } from './png.js'
import { stateAt, type Task } from './taskModel.js'
import { IMAGES_PER_TASK } from './taskReply.js'
import { fileOf, serveFile } from './virtualFile.js'

/**
 * `GET`/`HEAD /files/<taskId>.mp4` and `/files/<taskId>-<n>.png`: the result
 * files of completed tasks. Like signed URLs they need no token. A video is
 * a real 1-second H.264 MP4 (2,899 bytes); image `n` (from 1) a 64×36 PNG
 * of one colour picked by task id and `n`. Byte ranges are served (206/416),
 * so a client can resume a cut download. A URL answers 410 once an hour of
 * simulated time has passed since the task completed. The `dropDownloadAt`
 * fault cuts every download after that many bytes.
 */
export function fileRoutes(env: SimEnv): Route[] {
  return [{ method: 'GET', pattern: /^\/files\/([^/]+)$/, public: true, handle: (call) => serve(call, env) }]
}

async function serve(call: Call, env: SimEnv): Promise<void> {
  const [, id = '', n] = /^([\da-f-]{36})(?:\.mp4|-(\d+)\.png)$/.exec(call.params[0] ?? '') ?? []
  const task = env.tasks.get(id)
  const index = n === undefined ? undefined : Number(n)
  if (!task || !fits(task, index)) throw apiError(404, 'No such file.', 'not_found')
  const now = env.clock.now()
  if (task.audio) await task.audio.done
  const state = stateAt(task, now, env.settings.timing)
  if (state.phase !== 'completed') throw apiError(404, 'No such file: the task has not completed.', 'not_found')
  if (now >= state.updatedMs + VIDEO_URL_TTL_MS) {
    throw apiError(410, 'This URL expired: result URLs are valid for 1 hour after the task completed.', 'url_expired')
  }
  const file = index === undefined ? fileOf(SAMPLE_MP4, 'video/mp4') : fileOf(solidPng(64, 36, colourOf(`${id}-${index}`)), 'image/png')
  const drop = env.faults.current.dropDownloadAt?.bytes
  // A strong validator: a client resumes a broken download only when it can tell the file did not change.
  const etag = `"${id}${index === undefined ? '' : `-${index}`}"`
  await serveFile(call, file, { headers: { 'cache-control': 'private, max-age=3600', etag }, ...(drop === undefined ? {} : { dropAfter: drop }) })
}

function fits(task: Task, index: number | undefined): boolean {
  if (task.model.kind === 'video') return index === undefined
  return index !== undefined && index >= 1 && index <= IMAGES_PER_TASK
}

function colourOf(seed: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = createHash('sha256').update(seed).digest()
  return [r, g, b]
}
