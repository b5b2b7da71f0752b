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
import { eventsOf } from './responseEvents.js'
import { readRequest } from './responseInput.js'
import type { StoredResponse } from './responseModel.js'
import { cancel as cancelAt, hold, movedByStreams, release, sendable, sendNext, snapshotNow } from './responseProgress.js'
import { sendGarbledStream, writeSse, type StreamFaults } from './sse.js'

const escaped = RESPONSES_PATH.replaceAll('/', '\\/')

/**
 * The response endpoints:
 * - `POST {RESPONSES_PATH}`: create (JSON, or server-sent events with
 *   `stream: true`); stored unless `store: false`. A streamed one moves on
 *   with its stream; a background one otherwise moves from `queued` to
 *   `in_progress` to its final status on the simulated clock (see
 *   `positionOf`). Honours `Idempotency-Key` (see `priorCreation`).
 * - `GET {RESPONSES_PATH}/{id}`: the snapshot now, as far as its stream has
 *   got; with `?stream=true` its events (after `starting_after=N` if given),
 *   then the stream ends: a resumed stream moves a streamed response on too.
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
  // A streamed draft is held by its stream from the start (see draftResponse); a prior one from now.
  const response = prior ?? draftResponse(body, read, talk, env.clock.now(), env.settings)
  if (!prior) {
    if (response.background || field(body, 'store') !== false) env.responses.set(response.id, response)
    env.responseLedger.push({ id: response.id, ...(idem.key ? { idempotencyKey: idem.key } : {}), createdAt: response.createdMs, background: response.background, stream, delivered: false })
    idem.remember({ kind: 'response', response })
  } else if (stream) hold(response, env.clock.now(), env.settings.timing)
  const record = env.responseLedger.find((entry) => entry.id === response.id)
  const delivered = () => void (record && (record.delivered = true))
  try {
    if (faults.resetAfter) return call.destroy()
    if (faults.garbled) return stream ? sendGarbledStream(call, eventsOf(response)[0]!) : sendGarbled(call, 200, current(response, env))
    if (stream) return await streamOf(call, env, response, -1, faults.stream, delivered)
    onDelivered(call, delivered)
    await sendJson(call, 200, current(response, env))
  } finally {
    if (stream) release(response)
  }
}

async function retrieve(call: Call, env: SimEnv): Promise<void> {
  const response = find(call, env)
  if (call.url.searchParams.get('stream') !== 'true') return sendJson(call, 200, current(response, env))
  const after = call.url.searchParams.get('starting_after')
  if (after !== null && !/^\d+$/.test(after)) {
    throw invalid('starting_after', `starting_after: must be an integer of at least 0 (got ${JSON.stringify(after)})`)
  }
  const moves = movedByStreams(response)
  if (moves) hold(response, env.clock.now(), env.settings.timing)
  try {
    await streamOf(call, env, response, after === null ? -1 : Number(after), replayStreamFaults(call))
  } finally {
    if (moves) release(response)
  }
}

async function cancel(call: Call, env: SimEnv): Promise<void> {
  const response = find(call, env)
  if (!response.background) throw apiError(400, 'Only responses created with background: true can be cancelled.', 'not_cancellable')
  cancelAt(response, env.clock.now(), env.settings.timing)
  await sendJson(call, 200, current(response, env))
}

/** Streams the events after `after`; each moves the response on just before it is sent, if streams move it (see `sendNext`); a cancel stops the stream. */
function streamOf(call: Call, env: SimEnv, response: StoredResponse, after: number, faults: StreamFaults, onFrame?: () => void): Promise<void> {
  const events = sendable(response).filter((event) => event.sequence_number > after)
  const moves = movedByStreams(response)
  return writeSse(call, env, events, faults, { before: (event) => sendNext(response, event.sequence_number, moves), ...(onFrame ? { after: onFrame } : {}) })
}

function find(call: Call, env: SimEnv): StoredResponse {
  const id = call.params[0] ?? ''
  const response = env.responses.get(id)
  if (!response) throw apiError(404, `No response found with id '${id}'.`, 'not_found', { param: 'response_id' })
  return response
}

function current(response: StoredResponse, env: SimEnv): Record<string, unknown> {
  return snapshotNow(response, env.clock.now(), env.settings.timing)
}
