import * as v from 'valibot'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { TaskIdSchema } from '../validation/task.js'
import { nodeModules } from './nodeModules.js'

// Besides a UUID, a plain name: letters, digits, `_` and `-`; no dot, no separator, so never `..` nor a path.
const PLAIN_NAME = /^[A-Za-z0-9][\w-]{0,127}$/

/**
 * The path `saveResults` writes a result to: `<folder>/<taskId>-<index>.<ext>`,
 * the task id in lower case, so that two ids differing only in case never
 * share a file where the file system ignores case.
 * A task id comes from a gateway's reply, so it is a file name only when it
 * is a UUID or a plain name; and the resolved path must stay inside the
 * folder. Anything else (`../../x`, `/etc/x`, `a\\b`) is an
 * `InvalidRequestError`, raised before any request.
 *
 * @example
 * ```ts
 * resultFile('out', '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11', 1, 'mp4') // 'out/0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11-1.mp4'
 * resultFile('out', 'Task-A', 2, 'png')                                // 'out/task-a-2.png'
 * resultFile('out', '../../x', 1, 'mp4')                               // throws InvalidRequestError
 * ```
 */
export function resultFile(folder: string, taskId: string, index: number, ext: string): string {
  const refuse = (message: string) => new InvalidRequestError([{ path: 'taskId', message }], 'result file name')
  if (typeof taskId !== 'string' || !(v.is(TaskIdSchema, taskId) || PLAIN_NAME.test(taskId)) || !/^[a-z0-9]{1,5}$/.test(ext)) {
    throw refuse(`must be a UUID or a plain name (letters, digits, _ and -) to name a file (got ${JSON.stringify(taskId).slice(0, 80)})`)
  }
  // Lower case: on a file system that ignores case (macOS, Windows) `Task-A` and `task-a` would share one file; UUIDs ignore case anyway.
  const name = `${taskId.toLowerCase()}-${index}.${ext}`
  const { path } = nodeModules()
  const inside = path.resolve(folder)
  const file = path.resolve(inside, name)
  if (path.dirname(file) !== inside) throw refuse(`names a file outside ${inside}`)
  return `${folder}/${name}`
}
