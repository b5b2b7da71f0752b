import type { PollTiming } from '../contract/endpoint.js'
import { RESPONSES_PATH, type TaskKind } from '../contract/paths.js'

/** How failed calls are retried. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  readonly count?: number
  /** Ceiling of the first retry's delay; it doubles per retry. Default 500 ms. */
  readonly baseDelayMs?: number
  /** Largest ceiling of a delay. Default 8,000 ms. */
  readonly maxDelayMs?: number
  /**
   * Longest `Retry-After` that is waited out. A longer one ends the retries
   * and the error (with its `retryAfterMs`) reaches the subscriber. Default 60,000 ms.
   */
  readonly maxRetryAfterMs?: number
}

/** How often something is polled. */
export type PollDelayOptions = PollTiming

const MiB = 1024 * 1024

/**
 * Every default of the client, in one place. The README's "Defaults" table
 * is this object in words.
 */
export const DEFAULTS = {
  /** Longest silence: no whole JSON reply, or no complete stream event. */
  timeoutMs: 600_000,
  /** Largest JSON body read. Responses with generated images run to a few MB. */
  maxBodyBytes: 32 * MiB,
  /** Largest single stream event. Partial images are base64 PNGs of a few MB. */
  maxEventBytes: 16 * MiB,
  /** Retries of one request. */
  retry: { count: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 },
  /** Failed reads in a row that a poll loop (task or background response) survives, waiting as `retry` says. */
  pollFailures: 5,
  responsesPath: RESPONSES_PATH,
  /** Background responses: first poll after 1 s, ×1.5, at most 10 s apart. */
  responsePoll: { initialDelayMs: 1_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.1 },
  /** Reconnections of a dropped background stream in a row without a new event. */
  resumeAttempts: 3,
  /** Task polling by kind: video follows the interface's advice (10 s growing to 20 s); images start sooner. */
  taskPoll: {
    video: { initialDelayMs: 10_000, factor: 1.5, maxDelayMs: 20_000, jitter: 0.05 },
    image: { initialDelayMs: 2_000, factor: 1.5, maxDelayMs: 10_000, jitter: 0.05 },
  } satisfies Record<TaskKind, Required<PollTiming>>,
  /** Following a task ends with `TaskTimeoutError` after 15 minutes (renders take up to 10). */
  taskDeadlineMs: 15 * 60_000,
} as const
