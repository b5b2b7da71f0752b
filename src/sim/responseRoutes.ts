import { RESPONSES_PATH } from '../contract/index.js'
import { apiError, invalid } from './apiError.js'
import { conversationOf } from './conversation.js'
import { readJsonObject } from './body.js'
import type { Call, Route } from './call.js'
import { field } from './checkKit.js'
import { checkResponseRequest } from './checkResponseRequest.js'
import { creationFaults, replayStreamFaults } from './createFaults.js'
import type { SimEnv } from './env.js'
import { priorCreation } from './idempotency.js'
import { onDelivered, sendGarbled, sendJson } from './reply.js'
import { draftResponse } from './responseDraft.js'
import { cancelledEventsOf, eventsOf } from './responseEvents.js'
import { readRequest } from './responseInput.js'
import { statusAt, type StoredResponse } from './responseModel.js'
import { snapshotOf } from './responseSnapshot.js'
import { sendGarbledStream, writeSse } from './sse.js'

const escaped = RESPONSES_PATH.replaceAll('/', '\\/')

/**
 * The response endpoints:
 * - `POST {RESPONSES_PATH}`: create (JSON, or server-sent events with
 *   `stream: true`); stored unless `store: false`; a background one moves
 *   from `queued` to `in_progress` to its final status on the simulated
 *   clock. Honours `Idempotency-Key` (see `priorCreation`).
 * - `GET {RESPONSES_PATH}/{id}`: the current snapshot; with `?stream=true`
 *   its events (after `starting_after=N` if given), then the stream ends.
 * - `POST {RESPONSES_PATH}/{id}/cancel`: cancels a background response
 *   still running (a finished one is returned as it is; a foreground one is a 400).
 */
export function responseRoutes(env: SimEnv): Route[] {
  return [
    { method: 'POST', pattern: new RegExp(`^${escaped}$`), kind: () => 'create', handle: (call) => create(call, env) },
    {
      method: 'GET',
      pattern: new RegExp(`^${escaped}/([^/]+)$`),
      kind: (call) => (call.url.searchParams.get('stream') === 'true' ? 'stream' : 'other'),
      handle: (call) => retrieve(call, env),
    },
    { method: 'POST', pattern: new RegExp(`^${escaped}/([^/]+)/cancel$`), handle: (call) => cancel(call, env) },
  ]
}

async function create(call: Call, env: SimEnv): Promise<void> {
  const body = await readJsonObject(call)
  checkResponseRequest(body)
  const read = readRequest(body)
  const talk = conversationOf(read, field(body, 'previous_response_id'), env.responses)
  const stream = field(body, 'stream') === true
  const idem = priorCreation(call, env, body)
  const faults = creationFaults(call, env, stream)
  if (faults.resetBefore) return call.destroy()
  const prior = idem.prior?.kind === 'response' ? idem.prior.response : undefined
  const response = prior ?? draftResponse(body, read, talk, env.clock.now(), env.settings)
  if (!prior) {
    if (response.background || field(body, 'store') !== false) env.responses.set(response.id, response)
    env.responseLedger.push({ id: response.id, ...(idem.key ? { idempotencyKey: idem.key } : {}), createdAt: response.createdMs, background: response.background, stream, delivered: false })
    idem.remember({ kind: 'response', response })
  }
  const record = env.responseLedger.find((entry) => entry.id === response.id)
  const delivered = () => void (record && (record.delivered = true))
  if (faults.resetAfter) return call.destroy()
  const events = eventsOf(response)
  if (faults.garbled) return stream ? sendGarbledStream(call, events[0]!) : sendGarbled(call, 200, current(response, env))
  if (stream) return writeSse(call, env, events, faults.stream, delivered)
  onDelivered(call, delivered)
  await sendJson(call, 200, current(response, env))
}

async function retrieve(call: Call, env: SimEnv): Promise<void> {
  const response = find(call, env)
  if (call.url.searchParams.get('stream') !== 'true') return sendJson(call, 200, current(response, env))
  const after = call.url.searchParams.get('starting_after')
  if (after !== null && !/^\d+$/.test(after)) {
    throw invalid('starting_after', `starting_after: must be an integer of at least 0 (got ${JSON.stringify(after)})`)
  }
  const last = after === null ? -1 : Number(after)
  const events = response.cancelledMs === undefined ? eventsOf(response) : cancelledEventsOf(response)
  return writeSse(call, env, events.filter((event) => event.sequence_number > last), replayStreamFaults(call))
}

async function cancel(call: Call, env: SimEnv): Promise<void> {
  const response = find(call, env)
  if (!response.background) throw apiError(400, 'Only responses created with background: true can be cancelled.', 'not_cancellable')
  const status = statusAt(response, env.clock.now(), env.settings.timing)
  if (status === 'queued' || status === 'in_progress') response.cancelledMs = env.clock.now()
  await sendJson(call, 200, current(response, env))
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
