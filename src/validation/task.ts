import * as v from 'valibot'

/** A task id: a UUID. */
export const TaskIdSchema = v.pipe(v.string(), v.uuid('must be a UUID'))
const uuid = TaskIdSchema
const isoUtc = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/, 'must be an ISO 8601 UTC timestamp'),
)
const httpUrl = v.pipe(v.string(), v.check((s) => /^https?:\/\/[^\s/]/i.test(s) && URL.canParse(s), 'must be an absolute http(s) URL'))

/** The interface's task statuses. The newer vocabulary is read as these words. */
export type TaskStatus = 'pending' | 'processing' | 'completed' | 'failed'

const SYNONYMS: Record<string, TaskStatus> = { queued: 'pending', running: 'processing', succeeded: 'completed' }

const TaskStatusSchema = v.pipe(
  v.picklist(['pending', 'processing', 'completed', 'failed', 'queued', 'running', 'succeeded'], 'must be a task status'),
  v.transform((status): TaskStatus => SYNONYMS[status] ?? (status as TaskStatus)),
)

/** `task_info.error` of a failed task. */
export const TaskErrorSchema = v.looseObject({ code: v.pipe(v.number(), v.integer()), title: v.string(), detail: v.string() })

/** `task_info` as read back: the status is present. */
export const TaskInfoSchema = v.looseObject({
  id: uuid,
  status: TaskStatusSchema,
  created_at: isoUtc,
  updated_at: isoUtc,
  error: v.optional(TaskErrorSchema),
})

/** The 202 reply to task creation: `task_info` without a status. */
export const TaskCreatedSchema = v.looseObject({
  task_info: v.looseObject({ id: uuid, created_at: isoUtc, updated_at: isoUtc }),
})

const TaskReplyBase = v.looseObject({
  task_info: TaskInfoSchema,
  videos: v.optional(v.array(httpUrl, 'must be a list of URLs')),
  images: v.optional(v.array(httpUrl, 'must be a list of URLs')),
})

/* @__NO_SIDE_EFFECTS__ */
function taskReply(field: 'videos' | 'images') {
  return v.pipe(
    TaskReplyBase,
    v.forward(
      v.partialCheck(
        [['task_info', 'status'], [field]],
        (reply) => reply.task_info.status !== 'completed' || (reply[field]?.length ?? 0) > 0,
        'must hold at least one URL when the task is completed',
      ),
      [field],
    ),
    v.forward(
      v.partialCheck(
        [['task_info', 'status'], ['task_info', 'error']],
        (reply) => reply.task_info.status !== 'failed' || reply.task_info.error !== undefined,
        'must be present when the task failed',
      ),
      ['task_info', 'error'],
    ),
  )
}

/** Task result replies of video and image models, statuses normalized to the interface's words. */
export const TaskReplySchemas = { video: taskReply('videos'), image: taskReply('images') } as const

export type TaskInfo = v.InferOutput<typeof TaskInfoSchema>
export type TaskError = v.InferOutput<typeof TaskErrorSchema>
export type TaskCreated = v.InferOutput<typeof TaskCreatedSchema>
/** A task result reply; `videos` or `images` holds the URLs once completed. */
export type TaskReply = v.InferOutput<typeof TaskReplyBase>
