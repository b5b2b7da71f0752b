import type { PollTiming } from '../contract/endpoint.js'
import { RESPONSES_PATH, type TaskKind } from '../contract/paths.js'

/** How failed calls are retried. */
export interface RetryOptions {
  /** Retries after the first attempt. @defaultValue `2` ({@link DEFAULTS | DEFAULTS.retry.count}) */
  readonly count?: number
  /** Ceiling of the first retry's delay, in ms; it doubles per retry. @defaultValue `500` ({@link DEFAULTS | DEFAULTS.retry.baseDelayMs}) */
  readonly baseDelayMs?: number
  /** Largest ceiling of a delay, in ms. @defaultValue `8_000` ({@link DEFAULTS | DEFAULTS.retry.maxDelayMs}) */
  readonly maxDelayMs?: number
  /**
   * Longest `Retry-After` that is waited out, in ms. A longer one ends the
   * retries and the error (with its `retryAfterMs`) reaches the subscriber.
   *
   * @defaultValue `60_000` ({@link DEFAULTS | DEFAULTS.retry.maxRetryAfterMs})
   */
  readonly maxRetryAfterMs?: number
}

/**
 * How often something is polled: {@link PollTiming} under the name of an
 * option type. Its defaults depend on what is polled: see
 * `ClientOptions.responsePoll` and `ClientOptions.taskPoll`.
 */
export type PollDelayOptions = PollTiming

const MiB = 1024 * 1024

/**
 * Every default of the client, in one place: the options' `@defaultValue`s
 * name the entry they come from. The table "The reliability guarantees" in
 * docs/errors-and-retries.md is this object in words.
 *
 * @example
 * ```ts
 * console.log(DEFAULTS.retry.count, DEFAULTS.taskDeadlineMs)
 * // Output: 2 900000
 * ```
 */
export const DEFAULTS = {
  /** Longest silence: no whole JSON reply, or no complete stream event. */
  timeoutMs: 600_000,
  /** Largest JSON body read. Responses with generated images run to a few MB. */
  maxBodyBytes: 32 * MiB,
  /** Largest single stream event. Partial images are base64 PNGs of a few MB. */
  maxEventBytes: 16 * MiB,
  /** Retries of one request. */
  retry: {
    /** Retries after the first attempt. */
    count: 2,
    /** Ceiling of the first retry's delay, in ms. */
    baseDelayMs: 500,
    /** Largest ceiling of a delay, in ms. */
    maxDelayMs: 8_000,
    /** Longest `Retry-After` waited out, in ms. */
    maxRetryAfterMs: 60_000,
  },
  /** Failed reads in a row that a poll loop (task or background response) survives, waiting as `retry` says. */
  pollFailures: 5,
  /** Path of response creation (`/vendors/vendor-a/v1/responses`). */
  responsesPath: RESPONSES_PATH,
  /** Background responses: first poll after 1 s, ×1.5, at most 10 s apart. */
  responsePoll: {
    /** First poll after 1 s. */
    initialDelayMs: 1_000,
    /** ×1.5 per poll. */
    factor: 1.5,
    /** At most 10 s apart. */
    maxDelayMs: 10_000,
    /** Up to 10% taken off each wait. */
    jitter: 0.1,
  },
  /** Output tokens guessed, under `maxTokensPerMinute`, for a response creation that does not give `max_output_tokens`; the reported usage replaces it. */
  outputTokensGuess: 1_000,
  /** Reconnections of a dropped background stream in a row without a new event. */
  resumeAttempts: 3,
  /** Task polling by kind: video follows the interface's advice (10 s growing to 20 s); images start sooner. */
  taskPoll: {
    /** Videos: first poll after 10 s, ×1.5 per poll, at most 20 s apart, up to 5% jitter. */
    video: {
      /** First poll after 10 s. */
      initialDelayMs: 10_000,
      /** ×1.5 per poll. */
      factor: 1.5,
      /** At most 20 s apart. */
      maxDelayMs: 20_000,
      /** Up to 5% taken off each wait. */
      jitter: 0.05,
    },
    /** Images: first poll after 2 s, ×1.5 per poll, at most 10 s apart, up to 5% jitter. */
    image: {
      /** First poll after 2 s. */
      initialDelayMs: 2_000,
      /** ×1.5 per poll. */
      factor: 1.5,
      /** At most 10 s apart. */
      maxDelayMs: 10_000,
      /** Up to 5% taken off each wait. */
      jitter: 0.05,
    },
  } satisfies Record<TaskKind, Required<PollTiming>>,
  /** Following a task ends with `TaskTimeoutError` after 15 minutes (renders take up to 10). */
  taskDeadlineMs: 15 * 60_000,
} as const

/**
 * The fields of `options` that are set, to spread over defaults: a field
 * given as `undefined` keeps its default, as leaving it out does (spread
 * as it is, it would replace the default with `undefined`: no retries, or a
 * poll delay of `NaN`, which is no wait at all).
 *
 * @example
 * ```ts
 * ({ ...DEFAULTS.retry, ...setFields({ count: undefined, baseDelayMs: 100 }) }).count
 * // Output: 2
 * ```
 */
export function setFields<T extends object>(options: T | undefined): Partial<T> {
  const set: Partial<T> = {}
  if (options) for (const key of Object.keys(options) as (keyof T)[]) if (options[key] !== undefined) set[key] = options[key]
  return set
}
