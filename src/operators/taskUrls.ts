import { filter, map, pipe, type OperatorFunction } from 'rxjs'
import type { TaskEvent } from './pollTask.js'

/**
 * The result URLs of a completed task (`videos` or `images`), emitted once.
 *
 * @example
 * ```ts
 * gateway.textToVideo$({ prompt: 'A red kite over the sea' }).pipe(taskUrls()).subscribe(console.log)
 * // Output: [ 'https://…/video.mp4' ]
 * ```
 */
export function taskUrls(): OperatorFunction<TaskEvent, readonly string[]> {
  return pipe(
    filter((event): event is Extract<TaskEvent, { type: 'completed' }> => event.type === 'completed'),
    map((event) => event.urls),
  )
}
