import { rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { UnrecoverableError, WaitingError } from 'bullmq'
import { endpoints, isResultExpiredError, isTaskFailedError, resumeTask$, textToVideo$ } from 'rxgate'
import { filter, last, tap } from 'rxjs'
import { hashFile } from './hashFile.mjs'
import { idempotencyKeyOf } from './idempotencyKey.mjs'
import { progressOf } from './progress.mjs'
import { saveResult$ } from './saveResult$.mjs'
import { until } from './until.mjs'

/**
 * The processor of a render job: a small state machine whose state lives in
 * the job's data in Redis, saved before each step, so that any worker can
 * pick the job up after any crash and carry on from there.
 *
 *   new ──(key saved)──▶ keyed ──(POST; created)──▶ created ──(task$; completed)──▶ rendered ──(download$)──▶ saved
 *
 * rxgate's `resumeTask$` runs the first three steps from the saved state:
 *
 * - keyed: `state.key`, the Idempotency-Key, saved before the creation POST.
 *   Creating again with it returns the same task on a gateway that honours
 *   keys. It is derived from the job's identity, so two workers that hold
 *   the same job at once (a lock lost in a long pause) send the same key.
 * - created: `state.taskId`, saved as soon as the gateway names the task.
 *   Following it with `task$` is a read: repeat it as often as you like.
 * - rendered: the bytes go to `<results>/<task id>.mp4.part` (download$'s
 *   `keepPartial`), continued after a crash.
 * - saved: `state.file`, `state.bytes`, `state.sha256`; the job returns them.
 *
 * On `shutdown` (SIGTERM) the step in flight is unsubscribed (its request
 * aborted), the job goes back to the queue as it stands (no attempt spent),
 * and the worker can close.
 *
 * @example
 * new Worker('renders', renderProcessor({ client, resultsDir: 'results', shutdown }), { connection })
 */
export function renderProcessor({ client, resultsDir, allowHosts = [], slowLinkMs = 0, worker = '', shutdown }) {
  return async (job, token) => {
    const progress = progressOf(job, worker)
    const save = async (patch) => job.updateData({ ...job.data, state: { ...job.data.state, ...patch } })
    try {
      for (;;) {
        const state = job.data.state ?? {}
        if (state.sha256) return { taskId: state.taskId, file: state.file, bytes: state.bytes, sha256: state.sha256, resumedFrom: state.resumedFrom ?? 0 }
        // A whole file under the final name: a worker died after the rename, before saving its hash.
        const whole = state.taskId ? await stat(resultFile(resultsDir, state.taskId)).then(() => true, () => false) : false
        let saved
        if (whole) {
          const file = resultFile(resultsDir, state.taskId)
          await discardPart(file)
          saved = { file, ...(await hashFile(file)) }
        } else {
          progress.set({ stage: state.taskId ? 'following' : 'creating', ...(state.taskId && { taskId: state.taskId }) })
          const completed = await until(rendered$(client, job, save, progress), shutdown)
          const file = resultFile(resultsDir, completed.taskId)
          progress.set({ stage: 'downloading', taskId: completed.taskId, bytes: 0 })
          const downloaded = saveResult$(completed.urls[0], file, { expiresAt: completed.expiresAt, allowHosts, slowLinkMs }).pipe(
            tap((event) => event.type === 'progress' && progress.set({ stage: 'downloading', taskId: completed.taskId, bytes: event.bytes, total: event.total })),
            last(),
          )
          saved = await until(downloaded, shutdown)
        }
        await save({ file: saved.file, bytes: saved.bytes, sha256: saved.sha256, resumedFrom: saved.resumedFrom ?? 0 })
        progress.set({ stage: 'saved', taskId: job.data.state.taskId, bytes: saved.bytes })
      }
    } catch (error) {
      await progress.flush()
      if (shutdown.aborted) {
        // Back to the queue as it stands, without spending an attempt: the next worker resumes from the saved state.
        await job.moveToWait(token)
        throw new WaitingError()
      }
      // Paid and finished, but unusable: sending it again would pay again. A person decides.
      if (isTaskFailedError(error) || isResultExpiredError(error)) throw new UnrecoverableError(`${error.name}: ${error.message}`)
      throw error
    } finally {
      await progress.flush()
    }
  }
}

/**
 * The task's `completed` event, from whatever the job saved: `resumeTask$`
 * follows a saved task id; with only a saved key it sends the creation
 * again with that key (the client says the gateway honours keys:
 * `idempotentCreate`); with nothing it saves the job's derived key first.
 * Each piece of state is in Redis before the next step. An outcome still
 * unknown after the client's own resends fails this attempt: BullMQ retries
 * it later, with the same key, so no second task is made.
 */
function rendered$(client, job, save, progress) {
  const { key, taskId } = job.data.state ?? {}
  const saved = { ...(key && { idempotencyKey: key }), ...(taskId && { taskId }) }
  const create = (idempotencyKey) => textToVideo$(client, job.data.request, { idempotencyKey })
  return resumeTask$(client, endpoints.t2vSpark, saved, create, {
    idempotencyKey: idempotencyKeyOf(job),
    save: (state) => save({ key: state.idempotencyKey, ...(state.taskId && { taskId: state.taskId }) }),
  }).pipe(
    tap((event) => progress.set({ stage: 'following', taskId: event.taskId, status: event.type })),
    filter((event) => event.type === 'completed'),
    last(),
  )
}

/** Where a task's video goes: named after the task (a UUID, checked by task$), so a file there can only be its result. */
function resultFile(resultsDir, taskId) {
  return resolve(join(resultsDir, `${taskId}.mp4`))
}

/** Removes what earlier tries left of `file`'s download (called once `file` is whole): download$'s partial file and its version record. */
async function discardPart(file) {
  await rm(`${file}.part`, { force: true })
  await rm(`${file}.part.json`, { force: true })
}
