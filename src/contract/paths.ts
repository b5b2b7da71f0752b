/**
 * The gateway's paths, as the interface gives them. Plain data, read by the
 * client and by the simulator alike.
 */

/** `POST` creates a model response; a stored one is read at `{RESPONSES_PATH}/{id}`. */
export const RESPONSES_PATH = '/vendors/vendor-a/v1/responses'

/** What a media task yields: `videos` or `images`. */
export type TaskKind = 'video' | 'image'

/** One media model of the interface: where its tasks are created and read. */
export interface TaskModel {
  /** Key in the client's `endpoints` catalog. */
  readonly key: string
  readonly vendor: string
  readonly model: string
  readonly kind: TaskKind
  /** `POST` path that creates a task, where the interface's path pattern gives one. */
  readonly createPath?: string
  /** A task is read at `{resultPath}/{task_id}`. */
  readonly resultPath: string
}

/** The interface's path pattern: `/vendors/{vendor}/v1/{model}/{action}`. */
/* @__NO_SIDE_EFFECTS__ */
export function modelPath(vendor: string, model: string, action = 'generation'): string {
  return `/vendors/${vendor}/v1/${model}/${action}`
}

/**
 * The six media models: text-to-video creation (`t2v-spark`, whose task is
 * read by the same pattern) and the five result paths of the interface.
 * Image edit is read at a path outside the pattern and has no creation path.
 */
export const TASK_MODELS: readonly TaskModel[] = [
  { key: 't2vSpark', vendor: 'vendor-b', model: 't2v-spark', kind: 'video', createPath: modelPath('vendor-b', 't2v-spark'), resultPath: modelPath('vendor-b', 't2v-spark') },
  { key: 'videoOne', vendor: 'vendor-a', model: 'video-one', kind: 'video', createPath: modelPath('vendor-a', 'video-one'), resultPath: modelPath('vendor-a', 'video-one') },
  { key: 'i2vSpark', vendor: 'vendor-b', model: 'i2v-spark', kind: 'video', createPath: modelPath('vendor-b', 'i2v-spark'), resultPath: modelPath('vendor-b', 'i2v-spark') },
  { key: 'videoTwo', vendor: 'vendor-c', model: 'video-two', kind: 'video', createPath: modelPath('vendor-c', 'video-two'), resultPath: modelPath('vendor-c', 'video-two') },
  { key: 'imageEdit', vendor: 'vendor-d', model: 'image-edit', kind: 'image', resultPath: '/vendors/vendor-d/v1/image/edit' },
  { key: 'i2iPreview', vendor: 'vendor-d', model: 'i2i-preview', kind: 'image', createPath: modelPath('vendor-d', 'i2i-preview'), resultPath: modelPath('vendor-d', 'i2i-preview') },
]
