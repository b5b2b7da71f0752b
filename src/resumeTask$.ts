import { catchError, concatMap, defer, Observable, of, switchMap, throwError } from 'rxjs'
import { guard$, type Client } from './client.js'
import type { TaskEndpoint } from './contract/endpoint.js'
import { GatewayError } from './errors/GatewayError.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { isTaskCreationUnknownError, TaskCreationUnknownError } from './errors/TaskCreationUnknownError.js'
import type { TaskEvent } from './operators/pollTask.js'
import { newIdempotencyKey } from './policy/idempotency.js'
import { task$, type TaskOptions } from './tasks$.js'
import { idempotencyKeyIssue, checkTaskOptions } from './validation/options.js'
import { checkTaskId } from './validation/task.js'
import { checkTaskEndpoint } from './validation/taskEndpoint.js'

/** The durable state of one task's creation, as a caller keeps it (in a job's data, a database row): what {@link resumeTask$} resumes from. */
export interface SavedTask {
  /** The `Idempotency-Key` the creation is (or was, perhaps) sent with; saved before the POST. */
  readonly idempotencyKey?: string
  /** The task's id, once the gateway named it. */
  readonly taskId?: string
}

/** Options of {@link resumeTask$}: the follow's `poll` and `deadlineMs`, and where its state goes. */
export interface ResumeTaskOptions extends TaskOptions {
  /**
   * Receives the whole state each time it grows: the key before the
   * creation is sent, then the key and the task id as soon as the gateway
   * names it. Its Promise (if it returns one) is awaited before the next
   * step; a rejection ends the Observable in it (as the `cause` of a `GatewayError`).
   */
  readonly save?: (state: SavedTask & { readonly idempotencyKey: string }) => unknown
  /**
   * The key to create with when `saved` holds none (e.g. `idempotencyKeyOf(…)`).
   * @defaultValue a fresh random UUID per subscription
   */
  readonly idempotencyKey?: string
}

/**
 * Follows a task, or creates it once: a worker's step that may run again
 * after any crash. From the state saved so far:
 *
 * - with `taskId`: follows it with `task$` (the same events; nothing is created);
 * - with only `idempotencyKey`: an earlier run may have sent the creation.
 *   When the client says the gateway honours keys (`idempotentCreate`), it
 *   is sent again with that key, and the gateway returns the task made the
 *   first time, if any. Otherwise nothing is sent: it ends in
 *   `TaskCreationUnknownError` (carrying the key), since creating again could
 *   pay for a second task; look for the task in the gateway's records;
 * - with neither: a key (`options.idempotencyKey`, or a random one) is
 *   handed to `save` and, once saved, the creation is sent with it.
 *
 * `create(key)` sends the creation, e.g. `(key) => textToVideo$(client, body,
 * { idempotencyKey: key })`; it must send the key it is given, or the call
 * ends in `InvalidRequestError` (once the task's id is saved). The task's id
 * goes to `save` at the first event that names it, before that event is
 * emitted; a `TaskCreationUnknownError` whose reply named the task is saved
 * and followed the same way. A saved state, endpoint or option of the wrong
 * kind ends in `InvalidRequestError` before anything is sent.
 *
 * @example
 * ```ts
 * resumeTask$(client, endpoints.t2vSpark, job.data.state, (key) => textToVideo$(client, body, { idempotencyKey: key }), {
 *   save: (state) => job.updateData({ ...job.data, state }),
 * }).pipe(taskUrls())
 * ```
 */
export function resumeTask$(client: Client, endpoint: TaskEndpoint, saved: SavedTask, create: (idempotencyKey: string) => Observable<TaskEvent>, options: ResumeTaskOptions = {}): Observable<TaskEvent> {
  // What this call has learnt so far: a second subscription (a `retry`) resumes from it, never from
  // the argument again, so it follows the task the first one made instead of creating another.
  let known: SavedTask = saved
  return guard$(client, () => {
    const opts = options ?? {}
    checkArguments(endpoint, saved, create, opts)
    const follow = { ...(opts.poll && { poll: opts.poll }), ...(opts.deadlineMs !== undefined && { deadlineMs: opts.deadlineMs }) }
    const save = (state: SavedTask & { idempotencyKey: string }) =>
      defer(async () => {
        if (state.taskId !== undefined) known = state // the task exists, saved or not
        await opts.save?.(state)
        known = state
      })
    const now = known
    if (now.taskId !== undefined) return task$(client, endpoint, now.taskId, follow)
    if (now.idempotencyKey !== undefined) {
      // This call's own key, saved by its first subscription and not answered yet: sent again only where keys are honoured, as after a crash.
      return client.idempotentCreate ? created$(now.idempotencyKey) : throwError(() => refusal(endpoint, now.idempotencyKey!))
    }
    const key = opts.idempotencyKey ?? newIdempotencyKey()
    return save({ idempotencyKey: key }).pipe(switchMap(() => created$(key)))

    /** The creation sent with `key`; the task id saved at the first event that names it, before it is emitted. */
    function created$(key: string): Observable<TaskEvent> {
      let named = false
      return create(key).pipe(
        concatMap((event) => {
          if (named) return of(event)
          named = true
          const sent = event.type === 'created' ? event.idempotencyKey : key
          const saved$ = save({ idempotencyKey: key, taskId: event.taskId })
          if (sent === key) return saved$.pipe(switchMap(() => of(event)))
          return saved$.pipe(switchMap(() => throwError(() => ignoredKey(key, sent))))
        }),
        catchError((error: unknown) =>
          !named && isTaskCreationUnknownError(error) && error.taskId && error.idempotencyKey === key
            ? save({ idempotencyKey: key, taskId: error.taskId }).pipe(switchMap(() => task$(client, endpoint, error.taskId!, follow)))
            : throwError(() => error),
        ),
      )
    }
  })
}

function checkArguments(endpoint: TaskEndpoint, saved: SavedTask, create: unknown, options: ResumeTaskOptions): void {
  checkTaskEndpoint(endpoint)
  if (typeof saved !== 'object' || saved === null) throw new InvalidRequestError([{ path: 'saved', message: `must be the saved state, an object such as {} or { idempotencyKey, taskId } (got ${saved === null ? 'null' : typeof saved})` }])
  const broken = saved.idempotencyKey === undefined ? undefined : idempotencyKeyIssue(saved.idempotencyKey)
  if (broken) throw new InvalidRequestError([{ path: 'saved.idempotencyKey', message: broken }])
  if (saved.taskId !== undefined) checkTaskId(saved.taskId)
  if (typeof create !== 'function') throw new InvalidRequestError([{ path: 'create', message: 'must be a function of the key that sends the creation, e.g. (key) => textToVideo$(client, body, { idempotencyKey: key })' }])
  if (options.save !== undefined && typeof options.save !== 'function') throw new InvalidRequestError([{ path: 'save', message: 'must be a function of the state' }], 'options')
  checkTaskOptions(options)
}

/** A key saved without a task id, on a gateway not known to honour keys: sending again could make a second task. */
function refusal(endpoint: TaskEndpoint, idempotencyKey: string): TaskCreationUnknownError {
  const cause = new GatewayError(
    'an earlier run saved this key, and may have sent the creation, but saved no task id; the client does not say the gateway honours Idempotency-Key (idempotentCreate: true), so it is not sent again',
  )
  return new TaskCreationUnknownError({ endpoint, idempotencyKey, cause, chosen: true, honoured: false })
}

function ignoredKey(key: string, sent: string): InvalidRequestError {
  return new InvalidRequestError([
    { path: 'create', message: `must send the Idempotency-Key it is given ('${key}'), but the creation went with '${sent}'; the task's id is saved, so it will be followed, not created again` },
  ])
}
