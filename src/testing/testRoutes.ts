import { RESPONSES_PATH, TASK_MODELS, type TaskModel } from '../contract/index.js'
import { apiError, invalid } from '../sim/apiError.js'
import type { Call } from '../sim/call.js'
import { checkPromptBody, checkTextToVideo } from '../sim/checkTextToVideo.js'
import { field, isObject } from '../sim/checkKit.js'
import { checkResponseRequest } from '../sim/checkResponseRequest.js'
import { conversationOf } from '../sim/conversation.js'
import { priorCreation, type IdempotencyStore } from '../sim/idempotency.js'
import type { Mutable, SimResponseRecord, SimTaskRecord } from '../sim/ledger.js'
import type { SimSettings, SimTiming } from '../sim/options.js'
import { countWords, piecesOf } from '../sim/pieces.js'
import { idOf } from '../sim/responseContent.js'
import { draftResponse } from '../sim/responseDraft.js'
import type { SseEvent } from '../sim/responseEvents.js'
import { readRequest } from '../sim/responseInput.js'
import type { StoredResponse } from '../sim/responseModel.js'
import { cancel as cancelResponse, hold, movedByStreams, release, sendable, sendNext, snapshotNow } from '../sim/responseProgress.js'
import { failureOf, rankOf, stateAt, type Task } from '../sim/taskModel.js'
import { creationReply, taskReply } from '../sim/taskReply.js'
import { usageOf } from '../sim/usage.js'
import type { TestScript } from './types.js'

/** A reply of the test gateway: one JSON document, or the events of a stream. */
export type TestReply = { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly json: unknown } | StreamReply

/** The events of a stream, and what its writer tells the response (the simulator's `moveTo` and `release`). */
export interface StreamReply {
  readonly status: 200
  readonly events: readonly SseEvent[]
  /** Called just before an event is sent; false ends the stream there (a cancel came first). */
  before(event: SseEvent): boolean
  /** Called once, when the stream ends or its reader leaves. */
  end(): void
}

/** What one test gateway keeps: the simulator's models, on the clock of the test's scheduler. */
export interface GatewayState {
  readonly settings: SimSettings
  readonly now: () => number
  /** Where result URLs point. */
  readonly baseUrl: string
  readonly script: TestScript
  readonly tasks: Map<string, Task & { readonly timing: SimTiming }>
  readonly responses: Map<string, StoredResponse>
  readonly taskLedger: Mutable<SimTaskRecord>[]
  readonly responseLedger: Mutable<SimResponseRecord>[]
  readonly idempotency: IdempotencyStore
}

const RESPONSE_ID = new RegExp(`^${RESPONSES_PATH}/([^/]+)(/cancel)?$`)

/**
 * Answers one request by the simulator's rules (request checks, idempotency
 * keys, task progress, response content and events), at `state.now()`.
 * A rejection is thrown as the simulator's `SimHttpError`.
 */
export function answer(state: GatewayState, method: string, url: URL, key: string | undefined, body: unknown): TestReply {
  const path = url.pathname
  if (path === RESPONSES_PATH) return method === 'POST' ? createResponse(state, url, key, objectOf(body)) : notAllowed(method, path, 'POST')
  const byId = RESPONSE_ID.exec(path)
  if (byId) {
    const response = state.responses.get(byId[1]!)
    if (!response) throw apiError(404, `No response found with id '${byId[1]}'.`, 'not_found', { param: 'response_id' })
    if (byId[2]) return method === 'POST' ? cancel(state, response) : notAllowed(method, path, 'POST')
    return method === 'GET' ? retrieve(state, url, response) : notAllowed(method, path, 'GET')
  }
  for (const model of TASK_MODELS) {
    if (path === (model.createPath ?? model.resultPath)) return method === 'POST' ? createTask(state, url, key, model, objectOf(body)) : notAllowed(method, path, 'POST')
    if (path.startsWith(`${model.resultPath}/`)) return method === 'GET' ? readTask(state, model, path.slice(model.resultPath.length + 1)) : notAllowed(method, path, 'GET')
  }
  throw apiError(404, `Unknown path ${path}.`, 'not_found')
}

function createResponse(state: GatewayState, url: URL, key: string | undefined, body: Record<string, unknown>): TestReply {
  checkResponseRequest(body)
  const read = readRequest(body)
  const talk = conversationOf(read, field(body, 'previous_response_id'), state.responses)
  const stream = field(body, 'stream') === true
  const idem = priorCreation(callOf(url, key), state, body)
  const prior = idem.prior?.kind === 'response' ? idem.prior.response : undefined
  const response = prior ?? scripted(state, body, draftResponse(body, read, talk, state.now(), state.settings), read.allText)
  if (!prior) {
    if (response.background || field(body, 'store') !== false) state.responses.set(response.id, response)
    state.responseLedger.push({ id: response.id, ...(idem.key ? { idempotencyKey: idem.key } : {}), createdAt: response.createdMs, background: response.background, stream, delivered: true })
    idem.remember({ kind: 'response', response })
  } else if (stream) hold(response, state.now(), state.settings.timing)
  // A streamed draft is held by its stream from the start (see `draftResponse`); a prior one from now.
  return stream ? streamOf(response, -1, true) : { status: 200, json: current(state, response) }
}

/** The draft with the script's text as its only output, when the script gives one. */
function scripted(state: GatewayState, body: Record<string, unknown>, draft: StoredResponse, input: string): StoredResponse {
  const text = draft.outcome === 'failed' ? undefined : state.script.respond?.(body)
  if (text === undefined) return draft
  const pieces = piecesOf(text)
  return { ...draft, items: [{ kind: 'message', id: idOf('msg'), part: 'output_text', pieces }], usage: usageOf(countWords(input), pieces.length, 0, state.settings.usageShape), outcome: 'completed' }
}

function retrieve(state: GatewayState, url: URL, response: StoredResponse): TestReply {
  if (url.searchParams.get('stream') !== 'true') return { status: 200, json: current(state, response) }
  const after = url.searchParams.get('starting_after')
  if (after !== null && !/^\d+$/.test(after)) throw invalid('starting_after', `starting_after: must be an integer of at least 0 (got ${JSON.stringify(after)})`)
  const moves = movedByStreams(response)
  if (moves) hold(response, state.now(), state.settings.timing)
  return streamOf(response, after === null ? -1 : Number(after), moves)
}

/** The events after `after`, each moving the response on just before it is sent when streams move it (`sendNext`); `held`: the stream releases the response when it ends. */
function streamOf(response: StoredResponse, after: number, held: boolean): StreamReply {
  const moves = movedByStreams(response)
  let ended = !held
  return {
    status: 200,
    events: sendable(response).filter((event) => event.sequence_number > after),
    before: (event) => sendNext(response, event.sequence_number, moves),
    end: () => {
      if (ended) return
      ended = true
      release(response)
    },
  }
}

function cancel(state: GatewayState, response: StoredResponse): TestReply {
  if (!response.background) throw apiError(400, 'Only responses created with background: true can be cancelled.', 'not_cancellable')
  cancelResponse(response, state.now(), state.settings.timing)
  return { status: 200, json: current(state, response) }
}

function createTask(state: GatewayState, url: URL, key: string | undefined, model: TaskModel, body: Record<string, unknown>): TestReply {
  const { prompt } = model.key === 't2vSpark' ? checkTextToVideo(body, state.settings.allowUnknownTextToVideoFields) : checkPromptBody(body)
  const idem = priorCreation(callOf(url, key), state, body)
  const prior = idem.prior?.kind === 'task' ? idem.prior.task : undefined
  if (prior) return { status: 202, json: creationReply(prior) }
  const id = globalThis.crypto.randomUUID()
  const createdMs = state.now()
  const record = { id, path: url.pathname, ...(key === undefined ? {} : { idempotencyKey: key }), createdAt: createdMs, delivered: true, reads: 0 }
  const script = state.script.task?.(body) ?? {}
  // A scripted failure code reads like the simulator's `[fail:<code>]` marker.
  const failure = failureOf(script.failCode === undefined ? prompt : `[fail:${script.failCode}]`)
  const timing = { ...state.settings.timing, ...script.timing }
  const task = { id, model, createdMs, reported: -1, record, timing, ...(failure ? { failure } : {}) }
  state.tasks.set(id, task)
  state.taskLedger.push(record)
  idem.remember({ kind: 'task', task })
  return { status: 202, json: creationReply(task) }
}

function readTask(state: GatewayState, model: TaskModel, id: string): TestReply {
  const task = state.tasks.get(id.toLowerCase())
  if (task?.model !== model) return { status: 404, json: { detail: 'task not found' } }
  task.record.reads += 1
  const now = state.now()
  const taskState = stateAt(task, now, task.timing)
  task.reported = Math.max(task.reported, rankOf(taskState.phase))
  return { status: 200, json: taskReply(task, taskState, state.settings.vocabulary, state.baseUrl) }
}

function current(state: GatewayState, response: StoredResponse): Record<string, unknown> {
  return snapshotNow(response, state.now(), state.settings.timing)
}

function objectOf(body: unknown): Record<string, unknown> {
  if (isObject(body)) return body
  throw apiError(400, 'The request body must be a JSON object.', 'invalid_json')
}

function notAllowed(method: string, path: string, allow: string): never {
  throw apiError(405, `Method ${method} is not allowed on ${path}; use ${allow}.`, 'method_not_allowed', { headers: { allow } })
}

/** The two things of a request that the simulator's `priorCreation` reads: its key and its path. */
function callOf(url: URL, key: string | undefined): Call {
  return { url, log: key === undefined ? {} : { idempotencyKey: key } } as unknown as Call
}
