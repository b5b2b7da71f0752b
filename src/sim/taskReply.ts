import { NEWER_TASK_STATUS, VIDEO_URL_TTL_MS, type TaskStatus } from '../contract/index.js'
import type { Task, TaskState } from './taskModel.js'

/** Number of images an image task produces. */
export const IMAGES_PER_TASK = 2

/** A status in the chosen vocabulary: the interface's, or the newer `queued/running/succeeded/failed`. */
export function statusWord(phase: TaskStatus, vocabulary: 'spec' | 'new'): string {
  if (vocabulary === 'spec') return phase
  return Object.keys(NEWER_TASK_STATUS).find((word) => NEWER_TASK_STATUS[word] === phase) ?? phase
}

/** ISO 8601 UTC with milliseconds, e.g. `2025-01-02T03:04:05.678Z`. */
const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * The task result reply of the interface: `task_info` (with `error` when
 * failed) and, once completed, `videos` or `images` URLs under `/files/`
 * that carry their expiry (valid one hour after completion).
 */
export function taskReply(task: Task, state: TaskState, vocabulary: 'spec' | 'new', baseUrl: string, id = task.id): Record<string, unknown> {
  const task_info = {
    id,
    status: statusWord(state.phase, vocabulary),
    created_at: iso(task.createdMs),
    updated_at: iso(state.updatedMs),
    ...(state.phase === 'failed' ? { error: state.error } : {}),
  }
  if (state.phase !== 'completed') return { task_info }
  const expires = `?expires=${Math.floor((state.updatedMs + VIDEO_URL_TTL_MS) / 1000)}`
  const files = `${baseUrl}/files/${id}`
  return task.model.kind === 'video'
    ? { task_info, videos: [`${files}.mp4${expires}`] }
    : { task_info, images: Array.from({ length: IMAGES_PER_TASK }, (_, n) => `${files}-${n + 1}.png${expires}`) }
}

/** The reply to a creation: `task_info` with id and times, and no status (as the interface shows it). */
export function creationReply(task: Task): Record<string, unknown> {
  const created = iso(task.createdMs)
  return { task_info: { id: task.id, created_at: created, updated_at: created } }
}
