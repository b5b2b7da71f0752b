import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { UnrecoverableError, WaitingError } from 'bullmq'
import { endpoints, isResultExpiredError, isTaskCreationUnknownError, isTaskFailedError, task$, textToVideo$ } from 'rxgate'
import { catchError, filter, first, last, map, of, tap, throwError } from 'rxjs'
import { hashFile } from './hashFile.mjs'
import { idempotencyKeyOf } from './idempotencyKey.mjs'
import { discardPart } from './partFile.mjs'
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
 * - keyed: `state.key`, the Idempotency-Key, saved before the creation POST.
 *   Creating again with it returns the same task on a gateway that honours
 *   keys. It is derived from the job's identity, so two workers that hold
 *   the same job at once (a lock lost in a long pause) send the same key.
 * - created: `state.taskId`, saved as soon as the `created` event arrives.
 *   Following it with `task$` is a read: repeat it as often as you like.
 * - rendered: the bytes go to `<results>/<task id>.mp4.part`, resumed after a crash.
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
        if (!state.key) {
          // Chosen and saved before anything is sent: whoever sends this creation, now or after a crash, sends it with this key.
          await save({ key: idempotencyKeyOf(job) })
        } else if (!state.taskId) {
          progress.set({ stage: 'creating' })
          await save({ taskId: await until(created$(client, job.data.request, state.key), shutdown) })
        } else {
          // Named after the task (a UUID, checked by task$): a file there can only be this task's result.
          const file = resolve(join(resultsDir, `${state.taskId}.mp4`))
          // A whole file under the final name: a worker died after the rename, before saving its hash.
          const whole = await stat(file).then(() => true, () => false)
          let saved
          if (whole) {
            await discardPart(file)
            saved = { file, ...(await hashFile(file)) }
          } else {
            progress.set({ stage: 'following', taskId: state.taskId })
            const completed = await until(followed$(client, state.taskId, progress), shutdown)
            progress.set({ stage: 'downloading', taskId: state.taskId, bytes: 0 })
            const downloaded = saveResult$(completed.urls[0], file, { expiresAt: completed.expiresAt, allowHosts, slowLinkMs }).pipe(
              tap((event) => event.type === 'progress' && progress.set({ stage: 'downloading', taskId: state.taskId, bytes: event.bytes, total: event.total })),
              last(),
            )
            saved = await until(downloaded, shutdown)
          }
          await save({ file: saved.file, bytes: saved.bytes, sha256: saved.sha256, resumedFrom: saved.resumedFrom ?? 0 })
          progress.set({ stage: 'saved', taskId: state.taskId, bytes: saved.bytes })
        }
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
 * The task id of the creation sent with `key`, at its `created` event; the
 * follow stops there. An outcome still unknown after the client's own
 * resends (`idempotentCreate`) fails this attempt: BullMQ retries it later,
 * with the same key, so no second task is made. A reply that named the task
 * is enough to go on.
 */
function created$(client, request, key) {
  return textToVideo$(client, request, { idempotencyKey: key }).pipe(
    first((event) => event.type === 'created'),
    map((event) => event.taskId),
    catchError((error) => (isTaskCreationUnknownError(error) && error.taskId && error.idempotencyKey === key ? of(error.taskId) : throwError(() => error))),
  )
}

/** The task's `completed` event, reporting each status on the way. */
function followed$(client, taskId, progress) {
  return task$(client, endpoints.t2vSpark, taskId).pipe(
    tap((event) => progress.set({ stage: 'following', taskId, status: event.type })),
    filter((event) => event.type === 'completed'),
    last(),
  )
}
