/**
 * The interface of SPEC.md (and the facts of GATEWAY-NOTES.md the library must
 * survive), written out by hand from the documents. Deliberately not imported
 * from `src/contract/` nor from either side's code: a drift on either side
 * then disagrees with this file, and a test fails.
 */

/** SPEC "Endpoints" 1: response creation; retrieval and cancel by GATEWAY-NOTES' prefix rule. */
export const RESPONSES_PATH = '/vendors/vendor-a/v1/responses'

/** SPEC "Endpoints" 2: text-to-video creation, 202 `{ task_info: { id, created_at, updated_at } }`. */
export const TEXT_TO_VIDEO_PATH = '/vendors/vendor-b/v1/t2v-spark/generation'

export type TaskKind = 'video' | 'image'

/** One task result endpoint: `GET {path}/{task_id}`, 200 with a task result reply whose URLs are in `field`. */
export interface ResultPath {
  /** The client's catalog key (`endpoints.<key>`). */
  readonly key: 'videoOne' | 'i2vSpark' | 'videoTwo' | 'imageEdit' | 'i2iPreview' | 't2vSpark'
  readonly path: string
  readonly kind: TaskKind
  readonly field: 'videos' | 'images'
  /** Where the path is written. */
  readonly source: 'SPEC' | 'GATEWAY-NOTES'
}

/** SPEC "Endpoints" 3, the five result paths, and t2v-spark's own (GATEWAY-NOTES: "a created task must be readable"). */
export const RESULT_PATHS: readonly ResultPath[] = [
  { key: 'videoOne', path: '/vendors/vendor-a/v1/video-one/generation', kind: 'video', field: 'videos', source: 'SPEC' },
  { key: 'i2vSpark', path: '/vendors/vendor-b/v1/i2v-spark/generation', kind: 'video', field: 'videos', source: 'SPEC' },
  { key: 'videoTwo', path: '/vendors/vendor-c/v1/video-two/generation', kind: 'video', field: 'videos', source: 'SPEC' },
  { key: 'imageEdit', path: '/vendors/vendor-d/v1/image/edit', kind: 'image', field: 'images', source: 'SPEC' },
  { key: 'i2iPreview', path: '/vendors/vendor-d/v1/i2i-preview/generation', kind: 'image', field: 'images', source: 'SPEC' },
  { key: 't2vSpark', path: '/vendors/vendor-b/v1/t2v-spark/generation', kind: 'video', field: 'videos', source: 'GATEWAY-NOTES' },
]

/** SPEC "Task status", and the newer vocabulary of GATEWAY-NOTES, word for word in the same order. */
export const TASK_STATUS_WORDS = {
  spec: ['pending', 'processing', 'completed', 'failed'],
  new: ['queued', 'running', 'succeeded', 'failed'],
} as const

/** SPEC "Response status" lists four; GATEWAY-NOTES adds `queued` and `cancelled` ("accept all six"). */
export const RESPONSE_STATUSES = ['completed', 'incomplete', 'in_progress', 'failed', 'queued', 'cancelled'] as const
/** Statuses a background response is still changing in (GATEWAY-NOTES: "any other status is terminal"). */
export const RUNNING_RESPONSE_STATUSES = ['queued', 'in_progress'] as const

/** SPEC "Errors", observed combinations of `task_info.error`. */
export const TASK_ERRORS = [
  { code: 3001, title: 'Task Execution Error' },
  { code: 400, title: 'Invalid Request' },
] as const

/** SPEC "Limits": video download URLs stay valid for at most 1 hour. */
export const VIDEO_URL_VALIDITY_MS = 60 * 60 * 1000

/** SPEC "Task info object": ISO 8601 UTC, fractional seconds may be present. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/

/** SPEC "Task info object": `id` is a UUID. */
export const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i
