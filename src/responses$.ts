import { concat, defer, distinctUntilChanged, map, of, switchMap, type Observable } from 'rxjs'
import { InvalidRequestError } from './errors/InvalidRequestError.js'
import { ResponseFailedError } from './errors/ResponseFailedError.js'
import type { Context } from './context.js'
import { poll } from './operators/poll.js'
import { pollDelay, retryDelay } from './operators/backoff.js'
import { resumeStream } from './operators/resumeStream.js'
import { untilFinished } from './operators/untilFinished.js'
import { parseSse } from './streams/parseSse.js'
import { sseJson } from './streams/sseJson.js'
import { pathOnly, requestJson$, requestText$, type RequestSpec } from './transport/request$.js'
import { checkRequest, parsePayload } from './validation/check.js'
import { checkIdSegment } from './validation/paths.js'
import { isTerminalStatus, ResponseSchema, type Response } from './validation/response.js'
import { ResponseRequestSchema, type ResponseRequest } from './validation/responseRequest.js'
import { parseStreamEvent, type ResponseStreamEvent } from './validation/streamEvents.js'

/** Options of `retrieveResponse$`. */
export interface RetrieveResponseOptions {
  /** Stream the response's events instead of reading one snapshot. */
  readonly stream?: boolean
  /** With `stream`: replay only the events after this sequence number. */
  readonly startingAfter?: number
}

/**
 * Creates a model response. See `Gateway.responses$` for the contract.
 * Validation happens at subscription, so a bad body is an error
 * notification and nothing is sent.
 */
export function responses$(ctx: Context, body: ResponseRequest): Observable<ResponseStreamEvent | Response> {
  return defer(() => {
    checkRequest(ResponseRequestSchema, body)
    const spec: RequestSpec = { method: 'POST', path: ctx.responsesPath, body }
    if (body.stream) {
      const events = streamEvents$(ctx, spec)
      return body.background ? events.pipe(resumeFor(ctx)) : events
    }
    const created = requestJson$(ctx.client, spec).pipe(map(toResponse))
    if (!body.background) return created.pipe(map(throwIfFailed))
    return created.pipe(
      switchMap((first) =>
        isTerminalStatus(first.status)
          ? of(first)
          : concat(
              of(first),
              poll(() => read$(ctx, first.id), {
                delay: (n) => pollDelay(n, ctx.responsePoll),
                isDone: (r) => isTerminalStatus(r.status),
                scheduler: ctx.client.scheduler,
              }),
            ),
      ),
      distinctUntilChanged((a, b) => a.status === b.status),
      map(throwIfFailed),
    )
  })
}

/**
 * Reads a stored or background response: one snapshot, or with `stream`
 * its events (after `startingAfter`), resumed across dropped connections.
 */
export function retrieveResponse$(
  ctx: Context,
  id: string,
  options: RetrieveResponseOptions = {},
): Observable<ResponseStreamEvent | Response> {
  return defer(() => {
    checkIdSegment(id, 'id')
    const after = options.startingAfter
    if (after !== undefined && !(Number.isInteger(after) && after >= 0)) {
      throw new InvalidRequestError([{ path: 'startingAfter', message: `must be an integer of at least 0 (got ${after})` }])
    }
    if (!options.stream) return read$(ctx, id).pipe(map(throwIfFailed))
    return replay$(ctx, id, after).pipe(resumeFor(ctx, id, after))
  })
}

/** Cancels a background response; emits the Response as the gateway returns it. */
export function cancelResponse$(ctx: Context, id: string): Observable<Response> {
  return defer(() => {
    checkIdSegment(id, 'id')
    return requestJson$(ctx.client, { method: 'POST', path: `${ctx.responsesPath}/${id}/cancel` }).pipe(map(toResponse))
  })
}

function read$(ctx: Context, id: string): Observable<Response> {
  return requestJson$(ctx.client, { method: 'GET', path: `${ctx.responsesPath}/${id}` }).pipe(map(toResponse))
}

function streamEvents$(ctx: Context, spec: RequestSpec): Observable<ResponseStreamEvent> {
  return requestText$(ctx.client, spec).pipe(parseSse(), sseJson(parseStreamEvent), untilFinished(spec.method, pathOnly(spec.path)))
}

function replay$(ctx: Context, id: string, after: number | undefined): Observable<ResponseStreamEvent> {
  const query = after === undefined ? '?stream=true' : `?stream=true&starting_after=${after}`
  return streamEvents$(ctx, { method: 'GET', path: `${ctx.responsesPath}/${id}${query}` })
}

function resumeFor(ctx: Context, responseId?: string, after?: number) {
  return resumeStream({
    resume: (id, last) => replay$(ctx, id, last),
    attempts: ctx.resumeAttempts,
    delay: (n) => retryDelay(n, ctx.client.retry || {}),
    scheduler: ctx.client.scheduler,
    ...(responseId === undefined ? {} : { responseId }),
    ...(after === undefined ? {} : { after }),
  })
}

function toResponse(json: unknown): Response {
  return parsePayload(ResponseSchema, json, 'response')
}

function throwIfFailed(response: Response): Response {
  if (response.status !== 'failed') return response
  throw new ResponseFailedError({ responseId: response.id, code: response.error?.code, message: response.error?.message }, response)
}
