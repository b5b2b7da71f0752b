import { randomUUID } from 'node:crypto'
import * as v from 'valibot'
import { objectMessage, text } from '../validation/fields.js'
import { TextToVideoRequestSchema } from '../validation/textToVideoRequest.js'
import { iso } from './clock.js'
import type { SimEnv } from './env.js'
import { checkBody, readJson, sendJson, SimHttpError, type Call, type Route } from './http.js'
import { failureOf, IMAGES_PER_TASK, stateAt, statusWord, TASK_MODELS, URL_VALIDITY_MS, type Task, type TaskModel } from './taskModel.js'

/**
 * The creation body of the models whose body the interface does not show (a
 * simulator convenience): any JSON object with a non-empty string `prompt`.
 */
const PromptBodySchema = v.looseObject({ prompt: v.pipe(text, v.nonEmpty('must not be empty')) }, objectMessage)

const UUID = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/

/**
 * Two routes per media model (see `TASK_MODELS`):
 * - `POST {path}`: creates a task, 202 `{ task_info: { id, created_at, updated_at } }`.
 *   `t2v-spark` checks the interface's text-to-video body; the other models'
 *   creation routes are simulator conveniences taking any `{ prompt }`.
 * - `GET {path}/{id}`: the task's state on the simulated clock, with its
 *   result URLs once completed or its `error` once failed.
 */
export function taskRoutes(env: SimEnv): Route[] {
  return TASK_MODELS.flatMap((model): Route[] => [
    { method: 'POST', pattern: new RegExp(`^${model.path}$`), handle: (call) => create(call, env, model) },
    { method: 'GET', pattern: new RegExp(`^${model.path}/([^/]+)$`), handle: (call) => read(call, env, model) },
  ])
}

async function create(call: Call, env: SimEnv, model: TaskModel): Promise<void> {
  const schema = model.name === 't2v-spark' ? TextToVideoRequestSchema : PromptBodySchema
  const { prompt } = checkBody(schema, await readJson(call))
  const failure = failureOf(prompt)
  const task: Task = { id: randomUUID(), model, createdMs: env.clock.now(), ...(failure ? { failure } : {}) }
  env.tasks.set(task.id, task)
  const created = iso(task.createdMs)
  sendJson(call, 202, { task_info: { id: task.id, created_at: created, updated_at: created } })
}

function read(call: Call, env: SimEnv, model: TaskModel): void {
  const id = call.params[0] ?? ''
  const task = UUID.test(id) ? env.tasks.get(id) : undefined
  if (task?.model !== model) throw new SimHttpError(404, { detail: 'task not found' })
  const { phase, updatedMs } = stateAt(task, env.clock.now(), env.settings.timing)
  const task_info = {
    id: task.id,
    status: statusWord(phase, env.settings.vocabulary),
    created_at: iso(task.createdMs),
    updated_at: iso(updatedMs),
    ...(phase === 'failed' ? { error: task.failure } : {}),
  }
  if (phase !== 'completed') return sendJson(call, 200, { task_info })
  const expires = `?expires=${Math.floor((updatedMs + URL_VALIDITY_MS) / 1000)}`
  const files = `${env.baseUrl()}/files/${task.id}`
  const result =
    model.kind === 'video'
      ? { videos: [`${files}.mp4${expires}`] }
      : { images: Array.from({ length: IMAGES_PER_TASK }, (_, n) => `${files}-${n + 1}.png${expires}`) }
  sendJson(call, 200, { task_info, ...result })
}
