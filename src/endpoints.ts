import type { PollTiming, TaskEndpoint } from './contract/endpoint.js'
import { modelPath, TASK_MODELS, type TaskKind } from './contract/paths.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'

export type { TaskEndpoint } from './contract/endpoint.js'
export type { TaskKind } from './contract/paths.js'

/** Options of {@link taskEndpoint}. */
export interface TaskEndpointOptions {
  /** The vendor's path segment, e.g. `vendor-b`. */
  readonly vendor: string
  /** The model's path segment, e.g. `t2v-wan26`. */
  readonly model: string
  /** Whether the model makes videos or images: it sets the polling defaults and where the URLs are read. */
  readonly kind: TaskKind
  /** Last path segment before the task id. @defaultValue `'generation'` */
  readonly action?: string
  /** Polling for this model's tasks, over the defaults of its kind. */
  readonly poll?: PollTiming
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
 * createTask$(client, wan26, { prompt: 'A red kite over the sea' }).pipe(taskUrls())
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function taskEndpoint(options: TaskEndpointOptions): TaskEndpoint {
  const { vendor, model, kind, action = 'generation', poll } = options ?? ({} as Partial<TaskEndpointOptions>)
  const issues = Object.entries({ vendor, model, action })
    .filter(([, value]) => typeof value !== 'string' || !SEGMENT.test(value))
    .map(([path, value]) => ({ path, message: `must be a path segment of letters, digits, ".", "_" or "-" (got ${JSON.stringify(value)})` }))
  if (kind !== 'video' && kind !== 'image') issues.push({ path: 'kind', message: 'must be "video" or "image"' })
  if (issues.length > 0) throw new InvalidRequestError(issues, 'task endpoint')
  const path = modelPath(vendor, model, action)
  return { name: `${vendor}/${model}`, kind, createPath: path, resultPath: path, ...(poll ? { poll } : {}) }
}

type CatalogKey = 't2vSpark' | 'videoOne' | 'i2vSpark' | 'videoTwo' | 'imageEdit' | 'i2iPreview'

/**
 * The media models of the gateway's interface: `t2vSpark` (text to video),
 * `videoOne`, `i2vSpark`, `videoTwo` (video), `imageEdit`, `i2iPreview`
 * (images). `imageEdit` is read at a path outside the pattern and has no
 * creation path here.
 *
 * @inlineType CatalogKey
 */
export const endpoints = /* @__PURE__ */ Object.fromEntries(
  TASK_MODELS.map((m): [string, TaskEndpoint] => [
    m.key,
    { name: `${m.vendor}/${m.model}`, kind: m.kind, resultPath: m.resultPath, ...(m.createPath ? { createPath: m.createPath } : {}) },
  ]),
) as Readonly<Record<CatalogKey, TaskEndpoint>>
