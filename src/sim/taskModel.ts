import type { SimTiming } from './options.js'

/** What a task produces: one video, or two images. */
export type TaskKind = 'video' | 'image'

/** A media model: tasks are created by `POST {path}` and read by `GET {path}/{id}`. */
export interface TaskModel {
  readonly name: string
  readonly path: string
  readonly kind: TaskKind
}

/** The six models of the interface. */
export const TASK_MODELS: readonly TaskModel[] = [
  { name: 't2v-spark', path: '/vendors/vendor-b/v1/t2v-spark/generation', kind: 'video' },
  { name: 'video-one', path: '/vendors/vendor-a/v1/video-one/generation', kind: 'video' },
  { name: 'i2v-spark', path: '/vendors/vendor-b/v1/i2v-spark/generation', kind: 'video' },
  { name: 'video-two', path: '/vendors/vendor-c/v1/video-two/generation', kind: 'video' },
  { name: 'image-edit', path: '/vendors/vendor-d/v1/image/edit', kind: 'image' },
  { name: 'i2i-preview', path: '/vendors/vendor-d/v1/i2i-preview/generation', kind: 'image' },
]

/** Number of images an image task produces. */
export const IMAGES_PER_TASK = 2

/** How long a result URL stays valid after the task completed: one hour. */
export const URL_VALIDITY_MS = 3_600_000

/** The error of a failed task, as the interface shows it. */
export interface TaskError {
  readonly code: number
  readonly title: string
  readonly detail: string
}

/** A media task as the simulator keeps it: its outcome is decided at creation. */
export interface Task {
  readonly id: string
  readonly model: TaskModel
  /** Simulated creation time, epoch ms. */
  readonly createdMs: number
  /** Set when the prompt holds a `[fail:<code>]` marker. */
  readonly failure?: TaskError
}

/** A task's status in the interface's words. */
export type TaskPhase = 'pending' | 'processing' | 'completed' | 'failed'

/** Where a task stands at one moment, and since when. */
export interface TaskState {
  readonly phase: TaskPhase
  /** Simulated time of the last change, epoch ms. */
  readonly updatedMs: number
}

/**
 * The failure a prompt asks for: `[fail:400]` is an `Invalid Request`
 * (rejected when it leaves `pending`), any other `[fail:<code>]` (e.g.
 * `[fail:3001]`) a `Task Execution Error` (failing when processing ends).
 */
export function failureOf(prompt: string): TaskError | undefined {
  const code = /\[fail:(\d{3,4})\]/.exec(prompt)?.[1]
  if (code === undefined) return undefined
  return code === '400'
    ? { code: 400, title: 'Invalid Request', detail: 'The input was rejected (the prompt holds the [fail:400] marker).' }
    : { code: Number(code), title: 'Task Execution Error', detail: `The task failed during execution (the prompt holds the [fail:${code}] marker).` }
}

/** The task's state at simulated time `now`: `pending`, then `processing`, then `completed` or `failed`. */
export function stateAt(task: Task, now: number, timing: SimTiming): TaskState {
  const started = task.createdMs + timing.pendingMs
  const finished = started + timing.processingMs
  if (now < started) return { phase: 'pending', updatedMs: task.createdMs }
  if (task.failure?.code === 400) return { phase: 'failed', updatedMs: started }
  if (now < finished) return { phase: 'processing', updatedMs: started }
  return { phase: task.failure ? 'failed' : 'completed', updatedMs: finished }
}

const NEW_WORDS: Record<TaskPhase, string> = { pending: 'queued', processing: 'running', completed: 'succeeded', failed: 'failed' }

/** A phase in the chosen vocabulary. */
export function statusWord(phase: TaskPhase, vocabulary: 'spec' | 'new'): string {
  return vocabulary === 'new' ? NEW_WORDS[phase] : phase
}
