import * as v from 'valibot'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { TaskIdSchema } from '../validation/task.js'

// Besides a UUID, a plain name: letters, digits, `_` and `-`; no dot, no separator, so never `..` nor a path.
const PLAIN_NAME = /^[A-Za-z0-9][\w-]{0,127}$/

/**
 * The path `saveResults` writes a result to: `<folder>/<taskId>-<index>.<ext>`,
 * the task id in lower case, so that two ids differing only in case never
 * share a file where the file system ignores case.
 * A task id comes from a gateway's reply, so it is a file name only when it
 * is a UUID or a plain name, and `ext` only when it is 1 to 5 lower-case
 * letters or digits: the name is then one path segment without `..`, so the
 * file is inside the folder. Anything else (`../../x`, `/etc/x`, `a\\b`) is
 * an `InvalidRequestError`, raised before any request.
 *
 * @example
 * ```ts
 * resultFile('out', '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11', 1, 'mp4') // 'out/0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11-1.mp4'
 * resultFile('out', 'Task-A', 2, 'png')                                // 'out/task-a-2.png'
 * resultFile('out', '../../x', 1, 'mp4')                               // throws InvalidRequestError
 * ```
 */
export function resultFile(folder: string, taskId: string, index: number, ext: string): string {
  const refuse = (path: string, message: string) => new InvalidRequestError([{ path, message }], 'result file name')
  if (typeof taskId !== 'string' || !(v.is(TaskIdSchema, taskId) || PLAIN_NAME.test(taskId))) {
    throw refuse('taskId', `must be a UUID or a plain name (letters, digits, _ and -) to name a file (got ${JSON.stringify(taskId).slice(0, 80)})`)
  }
  if (!/^[a-z0-9]{1,5}$/.test(ext)) throw refuse('ext', `must be 1 to 5 lower-case letters or digits (got ${JSON.stringify(ext)})`)
  // Lower case: on a file system that ignores case (macOS, Windows) `Task-A` and `task-a` would share one file; UUIDs ignore case anyway.
  // No separator, no `..`: no resolved path needs checking against the folder.
  return `${folder}/${taskId.toLowerCase()}-${index}.${ext}`
}
