import { InvalidRequestError } from './errors/InvalidRequestError.js'
import type { PollDelayOptions } from './operators/backoff.js'

/** What a task yields: `videos` or `images`. */
export type TaskKind = 'video' | 'image'

/** Where a media model's tasks are created and read. Plain data: safe to store and share. */
export interface TaskEndpoint {
  /** `vendor/model`, for messages. */
  readonly name: string
  readonly kind: TaskKind
  /** `POST` path that creates a task, when the gateway's path pattern gives one. */
  readonly createPath?: string
  /** A task is read at `{resultPath}/{task_id}`. */
  readonly resultPath: string
  /** Polling settings for this model, over the defaults of its kind. */
  readonly poll?: PollDelayOptions
}

/** Options of {@link taskEndpoint}. */
export interface TaskEndpointOptions {
  readonly vendor: string
  readonly model: string
  readonly kind: TaskKind
  /** Last path segment before the task id. Default `generation`. */
  readonly action?: string
  readonly poll?: PollDelayOptions
}

const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/i

/**
 * Addresses any media model of the gateway by its path pattern:
 * `POST /vendors/{vendor}/v1/{model}/{action}` creates a task and
 * `GET …/{action}/{task_id}` reads it. New models need no new release.
 *
 * @example
 * ```ts
 * const wan26 = taskEndpoint({ vendor: 'vendor-b', model: 't2v-wan26', kind: 'video' })
 * gateway.createTask$(wan26, { prompt: 'A red kite over the sea' }).pipe(taskUrls())
 * ```
 */
export function taskEndpoint({ vendor, model, kind, action = 'generation', poll }: TaskEndpointOptions): TaskEndpoint {
  const issues = Object.entries({ vendor, model, action })
    .filter(([, value]) => typeof value !== 'string' || !SEGMENT.test(value))
    .map(([path, value]) => ({ path, message: `must be a path segment of letters, digits, ".", "_" or "-" (got ${JSON.stringify(value)})` }))
  if (kind !== 'video' && kind !== 'image') issues.push({ path: 'kind', message: 'must be "video" or "image"' })
  if (issues.length > 0) throw new InvalidRequestError(issues, 'task endpoint')
  const path = `/vendors/${vendor}/v1/${model}/${action}`
  return { name: `${vendor}/${model}`, kind, createPath: path, resultPath: path, ...(poll ? { poll } : {}) }
}

/**
 * The media models of the gateway's interface. `imageEdit` is read at a path
 * outside the pattern and has no creation path here.
 */
export const endpoints = {
  t2vSpark: taskEndpoint({ vendor: 'vendor-b', model: 't2v-spark', kind: 'video' }),
  videoOne: taskEndpoint({ vendor: 'vendor-a', model: 'video-one', kind: 'video' }),
  i2vSpark: taskEndpoint({ vendor: 'vendor-b', model: 'i2v-spark', kind: 'video' }),
  videoTwo: taskEndpoint({ vendor: 'vendor-c', model: 'video-two', kind: 'video' }),
  imageEdit: { name: 'vendor-d/image-edit', kind: 'image', resultPath: '/vendors/vendor-d/v1/image/edit' } as TaskEndpoint,
  i2iPreview: taskEndpoint({ vendor: 'vendor-d', model: 'i2i-preview', kind: 'image' }),
} as const satisfies Record<string, TaskEndpoint>
