import { randomUUID } from 'node:crypto'
import { TASK_MODELS, type TaskModel } from '../contract/index.js'
import { SimHttpError } from './apiError.js'
import { startAudioCheck } from './audioCheck.js'
import { sendBadPoll } from './badPoll.js'
import { readJsonObject } from './body.js'
import type { Call, Route } from './call.js'
import { chaosError, takeChaos } from './chaos.js'
import { checkPromptBody, checkTextToVideo } from './checkTextToVideo.js'
import { creationFaults } from './createFaults.js'
import type { SimEnv } from './env.js'
import { CHAOS_FAULTS, type BadPollKind } from './faultTypes.js'
import { priorCreation } from './idempotency.js'
import { onDelivered, sendGarbled, sendJson } from './reply.js'
import { failureOf, rankOf, stateAt, type Task } from './taskModel.js'
import { creationReply, taskReply } from './taskReply.js'

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i

/**
 * Two routes per media model of the interface (`TASK_MODELS`):
 * - `POST {createPath}` (the result path for image edit, which has none):
 *   creates a task, 202 `{ task_info: { id, created_at, updated_at } }`.
 *   `t2v-spark` checks the interface's text-to-video body; the others are
 *   simulator conveniences taking any `{ prompt }`. Honours `Idempotency-Key`.
 * - `GET {resultPath}/{id}`: the task's state on the simulated clock, with
 *   its result URLs once completed or its `error` once failed; 404
 *   `{ detail: 'task not found' }` for an unknown id or another model's task.
 */
export function taskRoutes(env: SimEnv): Route[] {
  return TASK_MODELS.flatMap((model): Route[] => [
    { method: 'POST', pattern: exactly(model.createPath ?? model.resultPath), kind: () => 'create', handle: (call) => create(call, env, model) },
    { method: 'GET', pattern: new RegExp(`${exactly(model.resultPath).source.slice(0, -1)}/([^/]+)$`), kind: () => 'taskRead', handle: (call) => read(call, env, model) },
  ])
}

const exactly = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`)

async function create(call: Call, env: SimEnv, model: TaskModel): Promise<void> {
  const body = await readJsonObject(call)
  const checked = model.key === 't2vSpark' ? checkTextToVideo(body, env.settings.allowUnknownTextToVideoFields) : checkPromptBody(body)
  const idem = priorCreation(call, env, body)
  const faults = creationFaults(call, env, false)
  if (faults.resetBefore) return call.destroy()
  const prior = idem.prior?.kind === 'task' ? idem.prior.task : undefined
  const task = prior ?? newTask(env, model, call.url.pathname, checked, idem.key)
  if (!prior) idem.remember({ kind: 'task', task })
  if (faults.resetAfter) return call.destroy()
  if (faults.garbled) return sendGarbled(call, 202, creationReply(task))
  onDelivered(call, () => void (task.record.delivered = true))
  await sendJson(call, 202, creationReply(task))
}

function newTask(env: SimEnv, model: TaskModel, path: string, body: { prompt: string; audioUrl?: string }, key: string | undefined): Task {
  const id = randomUUID()
  const createdMs = env.clock.now()
  const record = { id, path, ...(key === undefined ? {} : { idempotencyKey: key }), createdAt: createdMs, delivered: false, reads: 0 }
  const failure = failureOf(body.prompt)
  const audio = body.audioUrl === undefined ? undefined : startAudioCheck(env, body.audioUrl)
  const task: Task = { id, model, createdMs, reported: -1, record, ...(failure ? { failure } : {}), ...(audio ? { audio } : {}) }
  env.tasks.set(id, task)
  env.taskLedger.push(record)
  return task
}

async function read(call: Call, env: SimEnv, model: TaskModel): Promise<void> {
  const id = call.params[0] ?? ''
  // A UUID is not case-sensitive: ids are stored in lower case, as the simulator makes them.
  const task = UUID.test(id) ? env.tasks.get(id.toLowerCase()) : undefined
  if (task?.model !== model) throw new SimHttpError(404, { detail: 'task not found' })
  task.record.reads += 1
  const fault = readFault(call, env)
  if (fault === 'reset') return call.destroy()
  const now = env.clock.now()
  // The audio is checked by the time the task leaves pending, as a real gateway would before rendering.
  if (task.audio && now >= task.createdMs + env.settings.timing.pendingMs) await task.audio.done
  const state = stateAt(task, now, env.settings.timing)
  const { vocabulary } = env.settings
  if (fault) return sendBadPoll(call, fault, task, state, vocabulary, env.baseUrl())
  task.reported = Math.max(task.reported, rankOf(state.phase))
  await sendJson(call, 200, taskReply(task, state, vocabulary, env.baseUrl()))
}

/** The fault of one read of a known task: the planned `badPollReply`, else chaos (bad replies, 5xx and 429 thrown, reset). */
function readFault(call: Call, env: SimEnv): BadPollKind | 'reset' | undefined {
  const planned = env.faults.nextTaskRead()
  if (planned) {
    call.note(`badPollReply:${planned}`)
    return planned
  }
  const picked = takeChaos(call, CHAOS_FAULTS.taskRead)?.fault
  const error = chaosError(picked)
  if (error) throw error
  if (picked === 'reset') return 'reset'
  return picked?.startsWith('badPollReply:') ? (picked.slice('badPollReply:'.length) as BadPollKind) : undefined
}
