import * as v from 'valibot'
import { NEWER_TASK_STATUS, TASK_STATUSES, type TaskStatus } from '../contract/status.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'

export type { TaskStatus } from '../contract/status.js'

/** A task id: a UUID. */
export const TaskIdSchema = v.pipe(v.string(), v.uuid('must be a UUID'))
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/
/**
 * Whether an ISO 8601 UTC timestamp names a moment that exists. The pattern
 * reads digits, not dates: `2026-13-45T99:99:99Z` passes it and `Date.parse`
 * gives NaN, and V8 reads `2026-02-30` as 2 March; either would make a
 * result's `expiresAt` wrong later. The fields are read as numbers, not
 * through `Date.parse`, whose reading of fractions other than milliseconds
 * is each engine's own: a month 01-12, a day within its month (29 February
 * in leap years), a time up to 23:59:59, or 24:00:00 exactly (the end of
 * the day); a leap second (`23:59:60`) is refused, as `Date` has none. A
 * string the pattern refuses passes here: it has its own issue already.
 */
function exists(at: string): boolean {
  if (!ISO_UTC.test(at)) return true
  const [year, month, day, hour, minute, second] = [0, 5, 8, 11, 14, 17].map((i) => Number(at.slice(i, i + (i === 0 ? 4 : 2))))
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0)
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month!) ? 30 : 31
  const endOfDay = hour === 24 && minute === 0 && second === 0 && !/\.\d*[1-9]/.test(at)
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= days && (endOfDay || (hour! <= 23 && minute! <= 59 && second! <= 59))
}
const isoUtc = v.pipe(v.string(), v.regex(ISO_UTC, 'must be an ISO 8601 UTC timestamp'), v.check(exists, 'must be a date and time that exist'))
// Whitespace or a control character (C0, DEL, C1) anywhere is refused, not only at the start:
// the URL parser drops a line break silently, but whoever reads the raw string line by line sees
// a second line the gateway wrote (`https://cdn/v.mp4\nhttps://evil/run.sh`), and a terminal acts on controls.
const httpUrl = v.pipe(
  v.string(),
  v.check((s) => /^https?:\/\/[^\s/]/i.test(s) && !/[\s\x00-\x1f\x7f-\x9f]/.test(s) && URL.canParse(s), 'must be an absolute http(s) URL, without whitespace or control characters'),
)

type RunningStatus = Exclude<TaskStatus, 'failed'>
const RUNNING = TASK_STATUSES.filter((s): s is RunningStatus => s !== 'failed')
const NEWER_RUNNING = Object.keys(NEWER_TASK_STATUS).filter((s) => s !== 'failed')
/**
 * A running status: the interface's word as it is, or a word of the newer
 * vocabulary read as the interface's. The interface's words come first, so a
 * reply that uses them is taken as it is, without a copy.
 */
const RunningStatusSchema = v.union(
  [v.picklist(RUNNING), v.pipe(v.picklist(NEWER_RUNNING), v.transform((s) => NEWER_TASK_STATUS[s] as RunningStatus))],
  'must be a task status',
)

/** `task_info.error` of a failed task. */
export const TaskErrorSchema = v.looseObject({ code: v.pipe(v.number(), v.integer()), title: v.string(), detail: v.string() })

/**
 * `task_info` as read back, a variant on `status` (the newer vocabulary is
 * read as the interface's words): a `failed` one always holds its `error`.
 */
export const TaskInfoSchema = v.variant('status', [
  v.looseObject({ id: TaskIdSchema, status: v.literal('failed'), created_at: isoUtc, updated_at: isoUtc, error: TaskErrorSchema }),
  v.looseObject({
    id: TaskIdSchema,
    status: RunningStatusSchema,
    created_at: isoUtc,
    updated_at: isoUtc,
    error: v.optional(TaskErrorSchema),
  }),
], 'must be a task status')

/** The 202 reply to task creation: `task_info` without a status. */
export const TaskCreatedSchema = v.looseObject({
  task_info: v.looseObject({ id: TaskIdSchema, created_at: isoUtc, updated_at: isoUtc }),
})

/* @__NO_SIDE_EFFECTS__ */
function taskReply(field: 'videos' | 'images') {
  return v.pipe(
    v.looseObject({
      task_info: TaskInfoSchema,
      videos: v.optional(v.array(httpUrl, 'must be a list of URLs')),
      images: v.optional(v.array(httpUrl, 'must be a list of URLs')),
    }),
    v.forward(
      v.partialCheck(
        [['task_info', 'status'], [field]],
        (reply) => reply.task_info.status !== 'completed' || (reply[field]?.length ?? 0) > 0,
        'must hold at least one URL when the task is completed',
      ),
      [field],
    ),
  )
}

/** Task result replies of video and image models. */
export const TaskReplySchemas = { video: taskReply('videos'), image: taskReply('images') } as const

/**
 * `task_info` as read back: `id`, `status` ({@link TaskStatus}, in the
 * interface's words whatever vocabulary the gateway used), `created_at`,
 * `updated_at`, and `error` ({@link TaskError}), always there when `failed`.
 */
export type TaskInfo = v.InferOutput<typeof TaskInfoSchema>
/** `task_info.error` of a failed task: `code`, `title` and `detail`. */
export type TaskError = v.InferOutput<typeof TaskErrorSchema>
/** The 202 reply to task creation: `task_info` with `id`, `created_at` and `updated_at`, and no status yet. */
export type TaskCreated = v.InferOutput<typeof TaskCreatedSchema>
/** A task result reply: `task_info` ({@link TaskInfo}), and `videos` or `images`, which hold the URLs once completed. */
export type TaskReply = v.InferOutput<(typeof TaskReplySchemas)['video']>

/** Checks a task id, a UUID, before it becomes a path segment. */
export function checkTaskId(id: unknown): string {
  if (!v.is(TaskIdSchema, id)) throw new InvalidRequestError([{ path: 'taskId', message: `must be a UUID (got ${JSON.stringify(id)})` }])
  return id
}
