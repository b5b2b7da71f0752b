import type { TaskKind } from './paths.js'

/** How often something is polled: the wait grows from `initialDelayMs` by `factor` up to `maxDelayMs`. */
export interface PollTiming {
  /** Wait before the first poll. */
  readonly initialDelayMs?: number
  /** Growth of the wait per poll. */
  readonly factor?: number
  /** Longest wait between polls. */
  readonly maxDelayMs?: number
  /** Share of each wait taken off at random, in [0, 1): spreads pollers apart without ever waiting longer than `maxDelayMs`. */
  readonly jitter?: number
}

/** Where a media model's tasks are created and read. Plain data: safe to store, share and log. */
export interface TaskEndpoint {
  /** `vendor/model`, for messages. */
  readonly name: string
  /** `video` or `image`: sets the polling defaults and whether results are read from `videos` or `images`. */
  readonly kind: TaskKind
  /** `POST` path that creates a task, when the gateway's path pattern gives one. */
  readonly createPath?: string
  /** A task is read at `{resultPath}/{task_id}`. */
  readonly resultPath: string
  /** Polling for this model, over the defaults of its kind. */
  readonly poll?: PollTiming
}
