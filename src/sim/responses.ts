import { ResponseRequestSchema } from '../validation/responseRequest.js'
import type { SimEnv } from './env.js'
import { apiError, checkBody, readJson, sendJson, type Call, type Route } from './http.js'
import { cancelledEventsOf, eventsOf } from './responseEvents.js'
import { draftResponse, snapshotOf, statusAt, type StoredResponse } from './responseModel.js'
import { writeSse } from './sse.js'

const BASE = '/vendors/vendor-a/v1/responses'

/**
 * The response endpoints:
 * - `POST {BASE}`: create (JSON, or server-sent events with `stream: true`);
 *   every response is stored unless `store: false`, and a background one
 *   moves from `queued` to `in_progress` to its final status on the
 *   simulated clock.
 * - `GET {BASE}/{id}`: the current snapshot; with `?stream=true` its events
 *   (after `starting_after=N` if given), then the stream ends.
 * - `POST {BASE}/{id}/cancel`: cancels a background response still running
 *   (a finished one is returned as it is; a foreground one is a 400).
 */
export function responseRoutes(env: SimEnv): Route[] {
  return [
    { method: 'POST', pattern: new RegExp(`^${BASE}$`), handle: (call) => create(call, env) },
    { method: 'GET', pattern: new RegExp(`^${BASE}/([^/]+)$`), handle: (call) => retrieve(call, env) },
    { method: 'POST', pattern: new RegExp(`^${BASE}/([^/]+)/cancel$`), handle: (call) => cancel(call, env) },
  ]
}

async function create(call: Call, env: SimEnv): Promise<void> {
  const request = checkBody(ResponseRequestSchema, await readJson(call))
  const previous = request.previous_response_id
  if (previous && !env.responses.has(previous)) {
    throw apiError(400, `Previous response with id '${previous}' not found.`, 'previous_response_not_found', { param: 'previous_response_id' })
  }
  const response = draftResponse(request, env.clock.now(), env.settings.usageShape)
  if (response.background || request.store !== false) env.responses.set(response.id, response)
  if (request.stream) return writeSse(call, env, eventsOf(response))
  sendJson(call, 200, current(response, env))
}

async function retrieve(call: Call, env: SimEnv): Promise<void> {
  const response = find(call, env)
  if (call.url.searchParams.get('stream') !== 'true') return sendJson(call, 200, current(response, env))
  const after = call.url.searchParams.get('starting_after')
  if (after !== null && !/^\d+$/.test(after)) {
    throw apiError(400, `starting_after: must be an integer of at least 0 (got ${after})`, 'invalid_value', { param: 'starting_after' })
  }
  const last = after === null ? -1 : Number(after)
  const events = response.cancelledMs === undefined ? eventsOf(response) : cancelledEventsOf(response)
  return writeSse(call, env, events.filter((event) => event.sequence_number > last))
}

function cancel(call: Call, env: SimEnv): void {
  const response = find(call, env)
  if (!response.background) throw apiError(400, 'Only responses created with background: true can be cancelled.', 'not_cancellable')
  const status = statusAt(response, env.clock.now(), env.settings.timing)
  if (status === 'queued' || status === 'in_progress') response.cancelledMs = env.clock.now()
  sendJson(call, 200, current(response, env))
}

function find(call: Call, env: SimEnv): StoredResponse {
  const id = call.params[0] ?? ''
  const response = env.responses.get(id)
  if (!response) throw apiError(404, `No response found with id '${id}'.`, 'not_found', { param: 'response_id' })
  return response
}

function current(response: StoredResponse, env: SimEnv): Record<string, unknown> {
  return snapshotOf(response, statusAt(response, env.clock.now(), env.settings.timing))
}
