import * as v from 'valibot'
import type { TaskEndpoint } from '../contract/endpoint.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { toIssues } from './check.js'
import { objectMessage } from './fields.js'

const PATH = 'must be a path of segments, such as /vendors/vendor-b/v1/t2v-spark/generation'

/**
 * A path a task is created or read at: `/`-led segments, none of them `.` or
 * `..`, and no query or fragment: each would change where a request goes.
 */
const TaskPathSchema = v.pipe(v.string(PATH), v.regex(/^(\/(?!\.\.?(?:\/|$))[^/\s?#]+)+$/, PATH))

/** The shape of a {@link TaskEndpoint} as the task functions use it (other fields are left alone). */
const TaskEndpointSchema = v.looseObject(
  {
    name: v.string('must be a string, the model as vendor/model'),
    kind: v.picklist(['video', 'image'], 'must be "video" or "image"'),
    createPath: v.optional(TaskPathSchema),
    resultPath: TaskPathSchema,
    poll: v.optional(v.looseObject({}, 'must be an object of poll timing')),
  },
  objectMessage,
)

/**
 * Checks what a caller passed as a task endpoint before any path is built
 * from it: plain JavaScript can pass anything (`null`, a model name, an
 * object without `resultPath`), and each would otherwise fail deep inside
 * with a `TypeError`, or send a request to `undefined/…`. Throws
 * {@link InvalidRequestError} naming the field (`endpoint`, `endpoint.resultPath`).
 *
 * @example
 * ```ts
 * checkTaskEndpoint(endpoints.t2vSpark) // passes
 * checkTaskEndpoint('t2v-spark')        // throws: endpoint: must be a task endpoint, such as endpoints.t2vSpark … (got string)
 * ```
 */
export function checkTaskEndpoint(endpoint: unknown): asserts endpoint is TaskEndpoint {
  if (typeof endpoint !== 'object' || endpoint === null || Array.isArray(endpoint)) {
    const got = endpoint === null ? 'null' : Array.isArray(endpoint) ? 'a list' : typeof endpoint
    throw new InvalidRequestError([{ path: 'endpoint', message: `must be a task endpoint, such as endpoints.t2vSpark or one made by taskEndpoint() (got ${got})` }])
  }
  const result = v.safeParse(TaskEndpointSchema, endpoint)
  if (!result.success) throw new InvalidRequestError(toIssues(result.issues).map(({ path, message }) => ({ path: path ? `endpoint.${path}` : 'endpoint', message })))
}
