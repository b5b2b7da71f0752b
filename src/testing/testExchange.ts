import { Observable, type SchedulerAction, type SchedulerLike } from 'rxjs'
import { RESPONSES_PATH } from '../contract/index.js'
import { apiError, SimHttpError } from '../sim/apiError.js'
import type { ExchangePart, Exchange, TransportRequest } from '../transport/types.js'
import type { FaultScript, RouteKinds } from './testFaults.js'
import { answer, type GatewayState, type StreamReply, type TestReply } from './testRoutes.js'
import type { TestFault, TestRequest } from './types.js'

/** What the exchange needs besides the gateway's state. */
export interface ExchangeSetup {
  readonly state: GatewayState
  readonly scheduler: SchedulerLike
  readonly apiKey: string
  readonly latencyMs: number
  readonly streamDelayMs: number
  readonly faults: FaultScript
  readonly log: TestRequest[]
}

const encoder = new TextEncoder()
const INVALID = Symbol('invalid JSON')

/**
 * The test gateway as an {@link Exchange}: each request is logged, then
 * answered `latencyMs` later on the scheduler (the token checked, then the
 * scripted faults, then the simulator's rules), a JSON reply in one chunk,
 * a stream one event every `streamDelayMs`. Unsubscribing cancels what is
 * still to come and marks the request aborted.
 */
export function testExchange(setup: ExchangeSetup): Exchange {
  const { scheduler, log } = setup
  return (request) =>
    new Observable<ExchangePart>((subscriber) => {
      const url = new URL(request.url)
      const { authorization, ...headers } = request.headers
      const body = parsed(request.body)
      const entry = { method: request.method, path: url.pathname, search: url.search, headers, body: body === INVALID ? request.body : body, at: scheduler.now(), status: 0, aborted: false }
      log.push(entry)
      let reply: TestReply | undefined
      let done = false
      const ended = (): void => {
        if (reply && 'events' in reply) reply.end()
      }
      // One action for the whole reply: the head with the first chunk, then one chunk every `streamDelayMs`.
      const timer = scheduler.schedule(
        function (this: SchedulerAction<number>, state?: number) {
          let index = state ?? -1
          if (index === -1) {
            const answered = (reply = replyTo(setup, request, url, authorization, body))
            entry.status = answered.status
            if ('json' in answered) {
              subscriber.next({ type: 'head', status: answered.status, headers: { ...answered.headers, 'content-type': 'application/json' } })
              subscriber.next({ type: 'chunk', bytes: encoder.encode(JSON.stringify(answered.json)) })
              done = true
              return subscriber.complete()
            }
            subscriber.next({ type: 'head', status: 200, headers: { 'content-type': 'text/event-stream' } })
            index = 0
          }
          const { events, before } = reply as StreamReply
          const event = events[index]
          if (event && before(event)) {
            subscriber.next({ type: 'chunk', bytes: encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`) })
            if (subscriber.closed) return
            if (index + 1 < events.length) return void this.schedule(index + 1, setup.streamDelayMs)
          }
          done = true
          ended()
          subscriber.complete()
        },
        setup.latencyMs,
        -1,
      )
      return () => {
        if (!done) entry.aborted = true
        timer.unsubscribe()
        ended()
      }
    })
}

function replyTo(setup: ExchangeSetup, request: TransportRequest, url: URL, authorization: string | undefined, body: unknown): TestReply {
  try {
    if (authorization !== `Bearer ${setup.apiKey}`) {
      throw apiError(401, 'Incorrect API key provided: check the bearer token.', 'invalid_api_key', { headers: { 'www-authenticate': 'Bearer' } })
    }
    if (body === INVALID) throw apiError(400, 'The request body is not valid JSON.', 'invalid_json')
    const fault = setup.faults.next(kindsOf(request, url, body))
    if (fault) throw fault
    return answer(setup.state, request.method, url, request.headers['idempotency-key'], body)
  } catch (error) {
    if (error instanceof SimHttpError) return { status: error.status, headers: error.headers, json: error.body }
    return { status: 500, json: { error: { message: `Test gateway error: ${String(error)}`, type: 'server_error', param: null, code: 'simulator_error' } } }
  }
}

function parsed(body: string | undefined): unknown {
  if (body === undefined) return undefined
  try {
    return JSON.parse(body)
  } catch {
    return INVALID
  }
}

function kindsOf(request: TransportRequest, url: URL, body: unknown): RouteKinds {
  const kinds = new Set<NonNullable<TestFault['route']>>(['any'])
  const stream = url.searchParams.get('stream') === 'true' || (url.pathname === RESPONSES_PATH && (body as { stream?: unknown } | undefined)?.stream === true)
  if (request.method === 'POST' && !url.pathname.endsWith('/cancel')) kinds.add('create')
  else if (request.method === 'GET' && !url.pathname.startsWith(RESPONSES_PATH)) kinds.add('taskRead')
  else if (!stream) kinds.add('other')
  if (stream) kinds.add('stream')
  return kinds
}
