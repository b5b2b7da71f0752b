import * as v from 'valibot'
import type { TaskEndpoint } from '../contract/endpoint.js'
import { endpoints } from '../endpoints.js'
import { serializeRequest } from '../validation/check.js'
import { ID_SEGMENT } from '../validation/paths.js'
import { ResponseRequestSchema } from '../validation/responseRequest.js'
import { TaskIdSchema } from '../validation/task.js'
import { TextToVideoRequestLooseSchema, TextToVideoRequestSchema } from '../validation/textToVideoRequest.js'
import type { HandlerSettings } from './options.js'
import { Refusal } from './reply.js'

/** One call the handler may forward, as the gateway will receive it. */
export interface Route {
  readonly method: 'GET' | 'POST'
  /** The gateway path, with its (rebuilt) query. */
  readonly path: string
  /** For creations: checks the parsed body by the client's own rules and returns the JSON text to send. */
  readonly body?: (json: unknown) => string
  /** The model the call uses, for the allow-list: a response's `model` is read from its body. */
  readonly model?: string | ((json: unknown) => unknown)
}

/** Finds the route of a request, or throws the {@link Refusal} that answers it. */
export type RouteTable = (method: string, path: string, query: URLSearchParams) => Route

const AnyObject = v.custom<object>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object')

/**
 * The interface's endpoints and the app's task endpoints, and nothing else:
 * response creation, retrieval (with `?stream=true&starting_after=N`
 * replay) and cancellation; text-to-video creation; the result paths of the
 * interface's media models; creation and results of each registered
 * endpoint. Ids are checked as the client checks them before they become
 * path segments, so a request cannot reach another resource with `..` or `%2F`.
 */
export function routeTable(settings: HandlerSettings): RouteTable {
  const responses = settings.responsesPath
  const t2v = settings.allowUnknownTextToVideoFields ? TextToVideoRequestLooseSchema : TextToVideoRequestSchema
  // Creation: text-to-video with its full rules; a registered endpoint takes any JSON object, as `createTask$` sends it.
  const creators = new Map<string, { name: string; check: (json: unknown) => string }>([
    [endpoints.t2vSpark.createPath!, { name: endpoints.t2vSpark.name, check: (json) => serializeRequest(t2v, json, 'text-to-video request') }],
  ])
  const readers = new Map<string, string>()
  const interfaceReads: TaskEndpoint[] = [endpoints.t2vSpark, endpoints.videoOne, endpoints.i2vSpark, endpoints.videoTwo, endpoints.imageEdit, endpoints.i2iPreview]
  for (const endpoint of [...interfaceReads, ...settings.taskEndpoints]) {
    if (!readers.has(endpoint.resultPath)) readers.set(endpoint.resultPath, endpoint.name)
  }
  for (const endpoint of settings.taskEndpoints) {
    if (endpoint.createPath && !creators.has(endpoint.createPath)) {
      creators.set(endpoint.createPath, { name: endpoint.name, check: (json) => serializeRequest(AnyObject, json, 'task creation body') })
    }
  }

  return (method, path, query) => {
    if (path === responses) {
      allow(method, 'POST')
      noQuery(query)
      return { method: 'POST', path, body: (json) => serializeRequest(ResponseRequestSchema, json, 'response request'), model: (json) => (json as { model?: unknown }).model }
    }
    if (path.startsWith(`${responses}/`)) {
      const [id, action, ...rest] = path.slice(responses.length + 1).split('/')
      if (rest.length === 0 && action === 'cancel') {
        allow(method, 'POST')
        noQuery(query)
        return { method: 'POST', path: `${responses}/${segment(id)}/cancel` }
      }
      if (action === undefined) {
        allow(method, 'GET')
        return { method: 'GET', path: `${responses}/${segment(id)}${replayQuery(query)}` }
      }
      throw unknownPath(path)
    }
    const creator = creators.get(path)
    if (creator) {
      allow(method, 'POST')
      noQuery(query)
      return { method: 'POST', path, body: creator.check, model: creator.name }
    }
    const slash = path.lastIndexOf('/')
    const reader = readers.get(path.slice(0, slash))
    if (reader) {
      allow(method, 'GET')
      noQuery(query)
      const id = path.slice(slash + 1)
      if (!v.is(TaskIdSchema, id)) throw new Refusal(400, 'invalid_task_id', `The task id must be a UUID (got ${JSON.stringify(id)}).`)
      return { method: 'GET', path, model: reader }
    }
    throw unknownPath(path)
  }
}

function allow(method: string, expected: 'GET' | 'POST'): void {
  if (method !== expected) throw new Refusal(405, 'method_not_allowed', `Method ${method} is not allowed here; use ${expected}.`, { allow: expected })
}

function noQuery(query: URLSearchParams): void {
  if ([...query.keys()].length > 0) throw new Refusal(400, 'unexpected_query', 'This endpoint takes no query parameters.')
}

function segment(id: string | undefined): string {
  if (id !== undefined && ID_SEGMENT.test(id) && id !== '.' && id !== '..') return id
  throw new Refusal(400, 'invalid_id', `The response id must be letters, digits, "_", "-", "." or ":" (got ${JSON.stringify(id)}).`)
}

/** `?stream=true` with an optional `starting_after=N`, rebuilt from what was read: nothing else reaches the gateway. */
function replayQuery(query: URLSearchParams): string {
  const keys = [...query.keys()]
  if (keys.length === 0) return ''
  const stream = query.getAll('stream')
  const after = query.getAll('starting_after')
  const bad = keys.some((key) => key !== 'stream' && key !== 'starting_after') || stream.length > 1 || after.length > 1
  if (bad || stream[0] !== 'true') throw new Refusal(400, 'unexpected_query', 'Retrieval takes only ?stream=true, optionally with &starting_after=<sequence number>.')
  if (after.length === 0) return '?stream=true'
  if (!/^\d{1,15}$/.test(after[0]!)) throw new Refusal(400, 'invalid_value', `starting_after must be an integer of at least 0 (got ${JSON.stringify(after[0])}).`)
  return `?stream=true&starting_after=${Number(after[0])}`
}

function unknownPath(path: string): Refusal {
  return new Refusal(404, 'not_found', `No gateway endpoint is served at ${JSON.stringify(path)}.`)
}
