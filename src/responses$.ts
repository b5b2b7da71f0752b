import type { Observable, Observer } from 'rxjs'
import { guard$, type Client } from './client.js'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { ResponseFailedError } from './errors/ResponseFailedError.js'
import type { CreationKey } from './errors/resendAdvice.js'
import { TimeoutError } from './errors/TimeoutError.js'
import { ValidationError } from './errors/ValidationError.js'
import { deadline } from './policy/deadline.js'
import { DEFAULTS } from './policy/defaults.js'
import { pollDelay, retryDelay } from './policy/delays.js'
import { creationFailure, creationKey } from './policy/idempotency.js'
import { loop$ } from './policy/loop.js'
import { request$ } from './policy/request$.js'
import { isTransient } from './policy/retryable.js'
import { createRule, readRule, type RetryPolicy } from './policy/rules.js'
import { sse$ } from './streams/sse$.js'
import { json$ } from './transport/json$.js'
import type { RequestSpec } from './transport/types.js'
import { operationOf, seeResponse, traced$, withTrace, type OperationTrace } from './telemetry.js'
import { recordUsage } from './usage.js'
import { parsePayload, serializeRequest } from './validation/check.js'
import { idempotencyKeyIssue } from './validation/options.js'
import { checkDelay, checkIdSegment } from './validation/paths.js'
import { isTerminalStatus, ResponseSchema, type Response } from './validation/response.js'
import { ResponseRequestSchema, type ResponseRequest } from './validation/responseRequest.js'
import { parseStreamEvent, type ResponseStreamEvent } from './validation/streamEvents.js'

/** Per-call options of {@link responses$}. */
export interface ResponseCallOptions {
  /** Overall deadline of the call, from subscription; past it the request is aborted with a `TimeoutError` (`reason: 'deadline'`). */
  readonly deadlineMs?: number
  /** The `Idempotency-Key` to create with. @defaultValue a fresh random UUID (`crypto.randomUUID()`) per subscription */
  readonly idempotencyKey?: string
}

/** Options of {@link retrieveResponse$}. */
export interface RetrieveResponseOptions {
  /** Stream the response's events instead of reading one snapshot. @defaultValue `false` */
  readonly stream?: boolean
  /** With `stream`: replay only the events after this sequence number. */
  readonly startingAfter?: number
  /** Overall deadline of the call, from subscription. */
  readonly deadlineMs?: number
}

/**
 * What `responses$` emits for a body whose `stream` is `S`: stream events for
 * `true`, Responses for `false` or none, either when only known at run time.
 */
export type ResponseOutput<S extends boolean | null | undefined> = S extends true ? ResponseStreamEvent : Response

/** What `retrieveResponse$` emits when its `stream` option is `S`: stream events for `true`, a Response otherwise. */
export type RetrieveOutput<S extends boolean | undefined> = S extends true ? ResponseStreamEvent : Response

/**
 * Creates a model response (`POST /vendors/vendor-a/v1/responses`).
 * - `stream: true`: the stream events, validated, in order; completes after
 *   `response.completed` or `response.incomplete`. With `background: true` a
 *   dropped connection is resumed with `starting_after`: no event is repeated or missed.
 * - otherwise: the Response, then completes. With `background: true`: the
 *   first snapshot, then each one whose status changed, until a final status.
 *
 * A failed response, `response.failed` or `error` event ends in
 * `ResponseFailedError`. A body that breaks the interface's rules ends in
 * `InvalidRequestError`, and nothing is sent. The creation carries an
 * `Idempotency-Key` and is sent again only when it certainly never arrived
 * (or, with `idempotentCreate`, whenever its outcome is unknown). One that
 * ends in a 5xx after it may have taken effect says in its message how to
 * send it again safely: with the same key.
 *
 * @example
 * ```ts
 * responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi', stream: true })
 *   .pipe(textDeltas())
 *   .subscribe((piece) => process.stdout.write(piece))
 * // Output: Hi there! How can I help you today?
 * ```
 */
export function responses$<S extends boolean | null | undefined = undefined>(
  client: Client,
  body: ResponseRequest & { readonly stream?: S },
  options?: ResponseCallOptions,
): Observable<ResponseOutput<S>> {
  return guard$(client, () => {
    // `null` (plain JavaScript) means no options, as leaving them out does.
    const { idempotencyKey, deadlineMs } = options ?? {}
    const text = serializeRequest(ResponseRequestSchema, body, 'response request')
    const badKey = idempotencyKey === undefined ? undefined : idempotencyKeyIssue(idempotencyKey)
    if (badKey) throw new InvalidRequestError([{ path: 'idempotencyKey', message: badKey }], 'options')
    if (deadlineMs !== undefined) checkDelay(deadlineMs, 'deadlineMs') // before the span starts: a refused call makes none
    const key = creationKey(client, idempotencyKey)
    const trace = client.telemetry && operationOf(client, { operation: 'chat', model: body.model, path: client.responsesPath, request: body, stream: body.stream === true })
    const spec: RequestSpec = withTrace(
      {
        method: 'POST',
        path: client.responsesPath,
        body: text,
        headers: { 'idempotency-key': key.idempotencyKey },
      },
      trace,
    )
    const created$: Observable<ResponseStreamEvent | Response> = body.stream
      ? stream$(client, spec, { resumable: body.background === true, started: false, counts: true, key, trace })
      : body.background
        ? background$(client, spec, key, trace)
        : single$(client, spec, key)
    const call$ = withDeadline(created$, client, deadlineMs, client.responsesPath)
    return traced$(trace, call$, client.secret, seeResponse)
  }) as Observable<ResponseOutput<S>>
}

/**
 * Reads a stored or background response: one snapshot, or with `stream: true`
 * its events after `startingAfter`, resumed across dropped connections.
 *
 * @example
 * ```ts
 * retrieveResponse$(client, id, { stream: true, startingAfter: 3 }).pipe(outputText()).subscribe(console.log)
 * ```
 */
export function retrieveResponse$<S extends boolean | undefined = undefined>(
  client: Client,
  id: string,
  options?: RetrieveResponseOptions & { readonly stream?: S },
): Observable<RetrieveOutput<S>> {
  const { stream, startingAfter: after, deadlineMs } = (options ?? {}) as RetrieveResponseOptions
  return guard$(client, (): Observable<ResponseStreamEvent | Response> => {
    checkIdSegment(id, 'id')
    if (after !== undefined && !(Number.isInteger(after) && after >= 0)) {
      throw new InvalidRequestError([{ path: 'startingAfter', message: `must be an integer of at least 0 (got ${after})` }])
    }
    if (deadlineMs !== undefined) checkDelay(deadlineMs, 'deadlineMs')
    const trace = client.telemetry && operationOf(client, { operation: 'retrieve_response', model: undefined, path: `${client.responsesPath}/${id}`, stream: stream === true, id })
    const read$: Observable<ResponseStreamEvent | Response> = stream
      ? stream$(client, replaySpec(client, id, after, trace), { resumable: true, started: true, id, last: after, trace })
      : request$(client, readSpec(client, id, trace), toFinished, readRule(client))
    const call$ = withDeadline(read$, client, deadlineMs, `${client.responsesPath}/{id}`)
    return traced$(trace, call$, client.secret, seeResponse)
  }) as Observable<RetrieveOutput<S>>
}

/**
 * Cancels a background response and emits it as the gateway returns it.
 *
 * @example
 * ```ts
 * cancelResponse$(client, id).subscribe((r) => console.log(r.status))
 * // Output: cancelled
 * ```
 */
export function cancelResponse$(client: Client, id: string): Observable<Response> {
  return guard$(client, () => {
    checkIdSegment(id, 'id')
    const path = `${client.responsesPath}/${id}/cancel`
    const trace = client.telemetry && operationOf(client, { operation: 'cancel_response', model: undefined, path, id })
    // Cancelling twice changes nothing, so it is retried like a read.
    const cancel$ = request$(client, withTrace({ method: 'POST', path } as const, trace), toResponse, readRule(client))
    return traced$(trace, cancel$, client.secret, seeResponse)
  })
}

/** Where a stream stands: what it has delivered, so a resumed connection neither repeats nor misses an event. */
interface StreamState {
  /** The stream may be reopened (a background response) once its id is known. */
  readonly resumable: boolean
  /** Some event has arrived: the creation is not to be sent again. */
  started: boolean
  id?: string | undefined
  /** The last sequence number delivered. */
  last?: number | undefined
  /** An event came without a sequence number: a replay could not be told apart from new events. */
  unnumbered?: boolean
  /** The stream is of a response this client created: its usage counts in the client's totals. */
  readonly counts?: boolean
  /** The creation's key, when the stream creates the response: a creation that fails says how to send it again safely. */
  readonly key?: CreationKey
  /** The call's trace, carried by the requests that resume the stream. */
  readonly trace?: OperationTrace | undefined
}

function stream$(client: Client, first: RequestSpec, state: StreamState): Observable<ResponseStreamEvent> {
  const events = { decode: parseStreamEvent, isLast: isLastEvent }
  const create = createRule(client)
  return loop$<ResponseStreamEvent, ResponseStreamEvent>(() => ({
    // Until an event arrived the creation itself is sent again (when it certainly never arrived); after, the stream is resumed.
    attempt: (_n, failures) => sse$(client, retried(state.started ? replaySpec(client, state.id!, state.last, state.trace) : first, failures), events),
    take: (event, out) => {
      const seq = event.sequence_number
      if (seq === undefined) state.unnumbered = true
      else if (state.last !== undefined && seq <= state.last) return 'old' // replayed: already delivered
      else state.last = seq
      state.started = true
      // A failed response is counted too: what it used was spent.
      if (state.counts && (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed')) recordUsage(client, event.response, state.key?.idempotencyKey)
      return takeEvent(event, out, state)
    },
    retry: (error, failures) => {
      if (!state.started) return create(error, failures)
      const resumable = state.resumable && state.id !== undefined && !state.unnumbered
      return resumable && failures <= client.resumeAttempts && isTransient(error) ? retryDelay(failures, client.retry || DEFAULTS.retry) : undefined
    },
    fail: (error) => (state.started || !state.key ? error : creationFailure(error, state.key, create.mayExist, 'response')),
    scheduler: client.scheduler,
  }))
}

function takeEvent(event: ResponseStreamEvent, out: Pick<Observer<ResponseStreamEvent>, 'next'>, state: StreamState): 'done' | 'more' {
  switch (event.type) {
    case 'response.created':
    case 'response.queued':
    case 'response.in_progress':
      state.id ??= event.response.id
      break
    case 'response.failed': {
      const { response } = event
      throw new ResponseFailedError({ responseId: response.id, code: response.error?.code, message: response.error?.message }, response)
    }
    case 'error': {
      const detail = event.error ?? event
      throw new ResponseFailedError({ responseId: state.id, code: detail.code, message: detail.message })
    }
  }
  out.next(event)
  return event.type === 'response.completed' || event.type === 'response.incomplete' ? 'done' : 'more'
}

function isLastEvent(event: ResponseStreamEvent): boolean {
  const { type } = event
  return type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed' || type === 'error'
}

/** A creation answered with the Response itself. */
function single$(client: Client, spec: RequestSpec, key: CreationKey): Observable<Response> {
  const rule = createRule(client)
  return request$(client, spec, (json) => throwIfFailed(counted(client, toResponse(json), key.idempotencyKey)), rule, (error) => creationFailure(error, key, rule.mayExist, 'response'))
}

function background$(client: Client, create: RequestSpec, key: CreationKey, trace: OperationTrace | undefined): Observable<Response> {
  let id: string | undefined
  let status: Response['status'] | undefined
  const created = createRule(client)
  const polls = pollRule(client)
  return loop$<Response, Response>(() => ({
    attempt: (_n, failures) => json$(client, retried(id === undefined ? create : readSpec(client, id, trace), failures), toResponse),
    take: (response, out) => {
      if (id !== undefined && response.id !== id) {
        throw new ValidationError('retrieved response', [{ path: 'id', message: `is ${response.id}, not ${id}` }], response)
      }
      id = response.id
      if (response.status !== status) {
        status = response.status
        if (isTerminalStatus(response.status)) recordUsage(client, response, key.idempotencyKey)
        out.next(throwIfFailed(response))
      }
      return isTerminalStatus(response.status) ? 'done' : 'more'
    },
    again: (n) => pollDelay(n, client.responsePoll),
    retry: (error, failures) => (id === undefined ? created(error, failures) : polls(error, failures)),
    fail: (error) => (id === undefined ? creationFailure(error, key, created.mayExist, 'response') : error),
    scheduler: client.scheduler,
  }))
}

/** Reads within a poll loop survive more failures in a row than single reads. */
function pollRule(client: RetryPolicy) {
  return readRule({ ...client, retry: client.retry && { ...client.retry, count: DEFAULTS.pollFailures } })
}

/** The spec of a try after `failures` failures in a row (for hooks). */
function retried(spec: RequestSpec, failures: number): RequestSpec {
  return failures ? { ...spec, retry: failures } : spec
}

/** A response this client created, counted in its usage totals. */
function counted(client: Client, response: Response, idempotencyKey: string): Response {
  recordUsage(client, response, idempotencyKey)
  return response
}

function readSpec(client: Client, id: string, trace: OperationTrace | undefined): RequestSpec {
  return withTrace({ method: 'GET', path: `${client.responsesPath}/${id}` }, trace)
}

function replaySpec(client: Client, id: string, after: number | undefined, trace: OperationTrace | undefined): RequestSpec {
  const query = after === undefined ? '?stream=true' : `?stream=true&starting_after=${after}`
  return withTrace({ method: 'GET', path: `${client.responsesPath}/${id}${query}` }, trace)
}

/** `ms` already checked (`checkDelay`) by the caller, before its span started. */
function withDeadline<T>(source: Observable<T>, client: Client, ms: number | undefined, path: string): Observable<T> {
  if (ms === undefined) return source
  return deadline(source, ms, client.scheduler, () => new TimeoutError('call', path, ms, 'deadline'))
}

function toResponse(json: unknown): Response {
  return parsePayload(ResponseSchema, json, 'response')
}

/** A Response as read, ended in `ResponseFailedError` when it failed. */
function toFinished(json: unknown): Response {
  return throwIfFailed(toResponse(json))
}

function throwIfFailed(response: Response): Response {
  if (response.status !== 'failed') return response
  throw new ResponseFailedError({ responseId: response.id, code: response.error?.code, message: response.error?.message }, response)
}
