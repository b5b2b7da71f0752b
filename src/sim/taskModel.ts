import { TASK_ERRORS, type TaskModel, type TaskStatus } from '../contract/index.js'
import type { AudioCheck } from './audioCheck.js'
import type { Mutable, SimTaskRecord } from './ledger.js'
import type { SimTiming } from './options.js'

/** The error of a failed task, as the interface shows it. */
export interface TaskError {
  readonly code: number
  readonly title: string
  readonly detail: string
}

/** A media task as the simulator keeps it: its outcome is decided at creation (and by its audio check). */
export interface Task {
  readonly id: string
  readonly model: TaskModel
  /** Simulated creation time, epoch ms. */
  readonly createdMs: number
  /** Set when the prompt holds a `[fail:<code>]` marker. */
  readonly failure?: TaskError
  /** The check of a custom `audio_url`, when the simulator could reach it. */
  readonly audio?: AudioCheck
  /** The latest status reported truthfully, by its rank (0 pending … 2 finished; -1 none yet), for the `backwards` fault. */
  reported: number
  readonly record: Mutable<SimTaskRecord>
}

/** Where a task stands at one moment, and since when. */
export interface TaskState {
  readonly phase: TaskStatus
  /** Simulated time of the last change, epoch ms. */
  readonly updatedMs: number
  /** Present when failed. */
  readonly error?: TaskError
}

/** Rank of a phase: pending 0, processing 1, completed or failed 2. */
export const rankOf = (phase: TaskStatus): number => ({ pending: 0, processing: 1, completed: 2, failed: 2 })[phase]

/**
 * The failure a prompt asks for: `[fail:400]` is an `Invalid Request`
 * (rejected when it leaves `pending`), any other `[fail:<code>]` (e.g.
 * `[fail:3001]`) a `Task Execution Error` (failing when processing ends).
 */
export function failureOf(prompt: string): TaskError | undefined {
  const code = /\[fail:(\d{3,4})\]/.exec(prompt)?.[1]
  if (code === undefined) return undefined
  return code === '400'
    ? { ...TASK_ERRORS.invalidRequest, detail: 'The input was rejected (the prompt holds the [fail:400] marker).' }
    : { code: Number(code), title: TASK_ERRORS.execution.title, detail: `The task failed during execution (the prompt holds the [fail:${code}] marker).` }
}

/**
 * The task's state at simulated time `now`: `pending`, then `processing`,
 * then `completed` or `failed`. Audio that breaks a rule, or a `[fail:400]`
 * marker, fails the task as it leaves `pending` (an `Invalid Request`).
 * Call it after the audio check has settled.
 */
export function stateAt(task: Task, now: number, timing: SimTiming): TaskState {
  const started = task.createdMs + timing.pendingMs
  const finished = started + timing.processingMs
  if (now < started) return { phase: 'pending', updatedMs: task.createdMs }
  const audio = task.audio?.problem()
  if (audio !== undefined) return { phase: 'failed', updatedMs: started, error: { ...TASK_ERRORS.invalidRequest, detail: audio } }
  if (task.failure?.code === 400) return { phase: 'failed', updatedMs: started, error: task.failure }
  if (now < finished) return { phase: 'processing', updatedMs: started }
  return task.failure ? { phase: 'failed', updatedMs: finished, error: task.failure } : { phase: 'completed', updatedMs: finished }
}
