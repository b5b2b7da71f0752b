import type http from 'node:http'
import { lastValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import {
  ConnectionError,
  createGateway,
  GatewayError,
  InvalidRequestError,
  outputText,
  ResponseFailedError,
  ValidationError,
  type GatewayOptions,
  type ResponseStreamEvent,
} from '../src/index.js'
import { collect, errorOf, observe } from './helpers/collect.js'
import { delta, frame, KEY, lifecycle, OPENAI_USAGE, response, SPEC_USAGE, TRANSPORTS } from './helpers/fixtures.js'
import { ManualScheduler } from './helpers/scheduler.js'
import { sendJson, settle, startServer, startSse } from './helpers/server.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'
const typeSeq = (events: ResponseStreamEvent[]) => events.map((e) => [String(e.type), e.sequence_number])

/** created(0), one delta per letter of `text` (1..n), completed(n+1), for response `id`. */
function eventsOf(text: string, id = 'resp_bg'): Record<string, unknown>[] {
  return [
    lifecycle('response.created', 0, { id, status: 'queued' }),
    ...[...text].map((c, i) => delta(i + 1, c)),
    lifecycle('response.completed', text.length + 1, { id, output_text: text }),
  ]
}

describe.each(TRANSPORTS)('responses$ over $name', ({ options }) => {
  const gatewayFor = (url: string, more: Partial<GatewayOptions> = {}) =>
    createGateway({ baseUrl: url, apiKey: KEY, retry: { count: 2, baseDelayMs: 0 }, responsePoll: { initialDelayMs: 0, jitter: 0 }, ...options, ...more })

  describe('without stream', () => {
    it('emits exactly one validated Response, then completes', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ output_text: 'Hi', extra_field: { kept: true } })))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', input: 'hi' }))
      expect(out.completed).toBe(true)
      expect(out.values).toEqual([response({ output_text: 'Hi', extra_field: { kept: true } })])
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${RESPONSES}`])
    })

    it.each(['completed', 'incomplete', 'in_progress', 'queued', 'cancelled'])('accepts status %s as a value', async (status) => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ status })))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(out).toMatchObject({ completed: true, values: [{ status }] })
    })

    it.each([
      ['the spec’s prompt_tokens/completion_tokens', SPEC_USAGE],
      ['input_tokens/output_tokens', OPENAI_USAGE],
    ])('accepts usage as %s', async (_, usage) => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ usage })))
      expect(await lastValueFrom(gatewayFor(server.url).responses$({ model: 'm' }))).toMatchObject({ usage })
    })

    it('ends a failed Response in ResponseFailedError with its code and message', async () => {
      const failed = response({ id: 'resp_f', status: 'failed', error: { code: 'server_error', message: 'The model crashed' } })
      const server = await startServer((_, res) => sendJson(res, 200, failed))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm' }))
      expect(out.values).toEqual([])
      expect(out.error).toBeInstanceOf(ResponseFailedError)
      expect(out.error).toBeInstanceOf(GatewayError)
      expect(out.error).toMatchObject({ code: 'server_error', responseId: 'resp_f', response: failed })
      expect((out.error as Error).message).toContain('The model crashed')
      expect((out.error as Error).message).toContain('server_error')
    })

    it('ends a failed Response without details in ResponseFailedError too', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ status: 'failed', error: null })))
      expect(await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))).toMatchObject({ name: 'ResponseFailedError', code: undefined })
    })

    it.each([
      ['a missing id', { id: undefined }, 'id'],
      ['an unknown status', { status: 'exploded' }, 'status'],
      ['a wrong object', { object: 'chat.completion' }, 'object'],
      ['a negative token count', { usage: { input_tokens: -1 } }, 'usage.input_tokens'],
      ['a message without content', { output: [{ id: 'm', type: 'message', role: 'assistant' }] }, 'output.0.content'],
      ['a message whose content is not an array', { output: [{ id: 'm', type: 'message', role: 'assistant', content: 'Hi' }] }, 'output.0.content'],
      ['a text part without text', { output: [{ id: 'm', type: 'message', role: 'assistant', content: [{ type: 'output_text' }] }] }, 'output.0.content.0.text'],
    ])('reports a Response with %s as a ValidationError with the path and the payload', async (_, over, path) => {
      const payload = JSON.parse(JSON.stringify(response(over)))
      const server = await startServer((_, res) => sendJson(res, 200, payload))
      const err = (await errorOf(gatewayFor(server.url).responses$({ model: 'm' }))) as ValidationError
      expect(err).toBeInstanceOf(ValidationError)
      expect(err.issues.map((i) => i.path)).toContain(path)
      expect(err.message).toContain(path)
      expect(err.payload).toEqual(payload)
    })
  })

  describe('with stream', () => {
    const streamServer = (body: string, keepOpen = false) =>
      startServer((_, res) => {
        startSse(res)
        if (keepOpen) res.write(body)
        else res.end(body)
      })

    it('emits the validated events in order, unknown types included, and completes', async () => {
      const future = { type: 'response.future_thing.delta', sequence_number: 2, payload: { deep: [1, 'x'] } }
      const events = [lifecycle('response.created', 0), delta(1, 'Hel'), future, delta(3, 'lo'), lifecycle('response.completed', 4, { output_text: 'Hello' })]
      const server = await streamServer(events.map((e) => frame(e)).join(''))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.completed).toBe(true)
      expect(out.values).toEqual(events)
    })

    it('completes at response.completed without waiting for the server to close, and closes the connection', async () => {
      const server = await streamServer(frame(lifecycle('response.created', 0)) + frame(lifecycle('response.completed', 1)), true)
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.completed).toBe(true)
      await server.requests[0]!.closedEarly
    })

    it('emits response.incomplete as a value and completes', async () => {
      const server = await streamServer(frame(delta(0, 'a')) + frame(lifecycle('response.incomplete', 1, { incomplete_details: { reason: 'max_output_tokens' } })))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.completed).toBe(true)
      expect(typeSeq(out.values)).toEqual([['response.output_text.delta', 0], ['response.incomplete', 1]])
    })

    it('ends a response.failed event in ResponseFailedError with code, message and the Response', async () => {
      const failed = lifecycle('response.failed', 2, { id: 'resp_x', error: { code: 'rate_limit_exceeded', message: 'Too busy' } })
      const server = await streamServer(frame(lifecycle('response.created', 0, { id: 'resp_x' })) + frame(delta(1, 'a')) + frame(failed))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.values).toHaveLength(2)
      expect(out.error).toBeInstanceOf(ResponseFailedError)
      expect(out.error).toMatchObject({ code: 'rate_limit_exceeded', responseId: 'resp_x', response: failed.response })
      expect((out.error as Error).message).toContain('Too busy')
    })

    it.each([
      ['flat', { type: 'error', sequence_number: 2, code: 'server_error', message: 'Overloaded', param: null }],
      ['nested', { type: 'error', sequence_number: 2, error: { type: 'server_error', code: 'server_error', message: 'Overloaded', param: null } }],
    ])('ends a %s error event in ResponseFailedError with its code and message', async (_, errorEvent) => {
      const server = await streamServer(frame(lifecycle('response.created', 0, { id: 'resp_e' })) + frame(delta(1, 'a')) + frame(errorEvent))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.values).toHaveLength(2)
      expect(out.error).toBeInstanceOf(ResponseFailedError)
      expect(out.error).toMatchObject({ code: 'server_error', responseId: 'resp_e' })
      expect((out.error as Error).message).toContain('Overloaded')
    })

    it('reports an event that breaks its schema as a ValidationError with the path and the payload', async () => {
      const bad = { ...delta(1, 'x'), delta: 42 }
      const server = await streamServer(frame(lifecycle('response.created', 0)) + frame(bad) + frame(lifecycle('response.completed', 2)))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.values).toHaveLength(1)
      expect(out.error).toBeInstanceOf(ValidationError)
      expect((out.error as ValidationError).issues.map((i) => i.path)).toContain('delta')
      expect((out.error as ValidationError).payload).toEqual(bad)
    })

    it('reports data that is not JSON as a ValidationError with the raw text', async () => {
      const server = await streamServer(frame(lifecycle('response.created', 0)) + 'data: {not json\n\n')
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.error).toBeInstanceOf(ValidationError)
      expect((out.error as ValidationError).payload).toBe('{not json')
    })

    it('types a payload without `type` by its SSE event name', async () => {
      const { type: _, ...untyped } = delta(1, 'x')
      const server = await streamServer(`event: response.output_text.delta\ndata: ${JSON.stringify(untyped)}\n\n` + frame(lifecycle('response.completed', 2)))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }).pipe(outputText()))
      expect(out.values).toEqual(['x'])
    })

    it('handles comments, \\r\\n, multi-line data and a final [DONE]', async () => {
      const d = JSON.stringify(delta(1, 'multi'))
      const cut = d.indexOf('"sequence_number"')
      const body =
        ': ping\r\n\r\n' +
        frame(lifecycle('response.created', 0), '\r\n') +
        `: ping\r\nevent: response.output_text.delta\r\ndata: ${d.slice(0, cut)}\r\ndata: ${d.slice(cut)}\r\n\r\n` +
        frame(lifecycle('response.completed', 2), '\r\n') +
        'data: [DONE]\r\n\r\n'
      const server = await streamServer(body)
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.completed).toBe(true)
      expect(typeSeq(out.values)).toEqual([['response.created', 0], ['response.output_text.delta', 1], ['response.completed', 2]])
      expect((out.values[1] as { delta: string }).delta).toBe('multi')
    })
  })

  describe('background without stream', () => {
    /** Answers the POST with `first`, then each GET with the next of `polls`. */
    async function pollingServer(first: string, polls: string[], errors: Record<string, unknown> = {}) {
      let n = 0
      return startServer((req, res) => {
        if (req.method === 'POST') return sendJson(res, 200, response({ id: 'resp_bg', status: first, output_text: null }))
        const status = polls[n++] ?? polls.at(-1)!
        sendJson(res, 200, response({ id: 'resp_bg', status, output_text: status === 'completed' ? 'Done' : null, ...(status === 'failed' ? errors : {}) }))
      })
    }

    it('emits the first snapshot, then each status change, polling until a final status', async () => {
      const server = await pollingServer('queued', ['queued', 'in_progress', 'in_progress', 'in_progress', 'completed'])
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', background: true, store: true }))
      expect(out.completed).toBe(true)
      expect(out.values.map((r) => r.status)).toEqual(['queued', 'in_progress', 'completed'])
      expect(out.values.at(-1)).toMatchObject({ output_text: 'Done' })
      expect(server.requests[0]).toMatchObject({ method: 'POST', json: { model: 'm', background: true, store: true } })
      expect(server.requests.slice(1).map((r) => `${r.method} ${r.url}`)).toEqual(Array(5).fill(`GET ${RESPONSES}/resp_bg`))
    })

    it('polls at the configured responsesPath', async () => {
      const server = await pollingServer('in_progress', ['completed'])
      await lastValueFrom(gatewayFor(server.url, { responsesPath: '/custom/responses' }).responses$({ model: 'm', background: true }))
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /custom/responses', 'GET /custom/responses/resp_bg'])
    })

    it('does not poll when the first snapshot is already final', async () => {
      const server = await pollingServer('completed', [])
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', background: true }))
      expect(out.values.map((r) => r.status)).toEqual(['completed'])
      await settle()
      expect(server.requests).toHaveLength(1)
    })

    it.each(['incomplete', 'cancelled'])('stops at %s, emitting it as a value', async (status) => {
      const server = await pollingServer('queued', ['in_progress', status])
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', background: true }))
      expect(out.completed).toBe(true)
      expect(out.values.map((r) => r.status)).toEqual(['queued', 'in_progress', status])
    })

    it('ends in ResponseFailedError when the response fails', async () => {
      const server = await pollingServer('queued', ['in_progress', 'failed'], { error: { code: 'server_error', message: 'Upstream died' } })
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', background: true }))
      expect(out.values.map((r) => r.status)).toEqual(['queued', 'in_progress'])
      expect(out.error).toBeInstanceOf(ResponseFailedError)
      expect(out.error).toMatchObject({ code: 'server_error', responseId: 'resp_bg' })
      expect((out.error as Error).message).toContain('Upstream died')
    })

    it('retries a failed poll (a GET) and keeps polling', async () => {
      let gets = 0
      const server = await startServer((req, res) => {
        if (req.method === 'POST') return sendJson(res, 200, response({ id: 'resp_bg', status: 'queued' }))
        if (++gets === 1) return sendJson(res, 503, { detail: 'busy' })
        sendJson(res, 200, response({ id: 'resp_bg', status: 'completed' }))
      })
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', background: true }))
      expect(out.values.map((r) => r.status)).toEqual(['queued', 'completed'])
      expect(gets).toBe(2)
    })

    it('waits the poll delays: initialDelayMs, then growing by factor', async () => {
      const scheduler = new ManualScheduler()
      const server = await pollingServer('queued', ['queued', 'queued', 'completed'])
      const gateway = gatewayFor(server.url, { scheduler, responsePoll: { initialDelayMs: 1_000, factor: 2, maxDelayMs: 3_000, jitter: 0 } })
      const o = observe(gateway.responses$({ model: 'm', background: true }))
      await server.request(1)
      for (const wait of [1_000, 2_000, 3_000]) {
        const before = server.requests.length
        // Let the previous reply arrive and the wait start before moving the clock.
        await waitForPending(scheduler, wait)
        scheduler.advanceBy(wait - 1)
        await settle(10)
        expect(server.requests).toHaveLength(before)
        scheduler.advanceBy(1)
        await server.request(before + 1)
      }
      const out = await o.done
      expect(out.values.map((r) => r.status)).toEqual(['queued', 'completed'])
    })
  })

  describe('background with stream: resuming a dropped connection', () => {
    /**
     * POST: sends events up to `dropAfter` and drops the connection.
     * GET ?stream=true&starting_after=N: `replay(N, n)` tells which events to send on the n-th GET and whether to drop after.
     */
    async function resumableServer(all: Record<string, unknown>[], dropAfter: number, replay: (after: number, n: number) => { from: number; dropAfter?: number; clean?: boolean }) {
      let gets = 0
      const send = (res: http.ServerResponse, raw: http.IncomingMessage, events: Record<string, unknown>[], drop: boolean, clean = false) => {
        startSse(res)
        const text = events.map((e) => frame(e)).join('')
        if (!drop) return res.end(text)
        if (clean) return res.end(text)
        res.write(text || ': nothing\n\n', () => raw.socket.destroy())
      }
      return startServer((req, res, raw) => {
        if (req.method === 'POST') return send(res, raw, all.filter((e) => (e.sequence_number as number) <= dropAfter), true)
        const after = Number(req.query.get('starting_after') ?? -1)
        const plan = replay(after, ++gets)
        const events = all.filter((e) => (e.sequence_number as number) >= plan.from && (plan.dropAfter === undefined || (e.sequence_number as number) <= plan.dropAfter))
        send(res, raw, events, plan.dropAfter !== undefined, plan.clean)
      })
    }

    it('reopens the stream with starting_after = the last sequence number seen: nothing lost, nothing twice', async () => {
      const all = eventsOf('abcdef')
      const server = await resumableServer(all, 3, (after) => ({ from: after + 1 }))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true, background: true }).pipe(outputText()))
      expect(out.values).toEqual(['abcdef'])
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${RESPONSES}`, `GET ${RESPONSES}/resp_bg?stream=true&starting_after=3`])
    })

    it('emits each event exactly once and in order even when the replay repeats old events', async () => {
      const all = eventsOf('abcdef')
      const server = await resumableServer(all, 3, () => ({ from: 0 }))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true, background: true }))
      expect(out.completed).toBe(true)
      expect(out.values.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    })

    it('resumes again after each drop, each time from the last event seen', async () => {
      const all = eventsOf('abcdefghij')
      const server = await resumableServer(all, 2, (after, n) => (n < 3 ? { from: after - 1, dropAfter: after + 3 } : { from: after + 1 }))
      const out = await collect(gatewayFor(server.url, { resumeAttempts: 1 }).responses$({ model: 'm', stream: true, background: true }))
      expect(out.completed).toBe(true)
      expect(out.values.map((e) => e.sequence_number)).toEqual(all.map((e) => e.sequence_number))
      expect(server.requests.slice(1).map((r) => r.query.get('starting_after'))).toEqual(['2', '5', '8'])
    })

    it('resumes a stream that ended cleanly before the response finished', async () => {
      const all = eventsOf('abc')
      let gets = 0
      const server = await startServer((req, res) => {
        startSse(res)
        if (req.method === 'POST') return res.end(all.slice(0, 2).map((e) => frame(e)).join(''))
        gets++
        res.end(all.filter((e) => (e.sequence_number as number) > Number(req.query.get('starting_after'))).map((e) => frame(e)).join(''))
      })
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true, background: true }).pipe(outputText()))
      expect(out.values).toEqual(['abc'])
      expect(gets).toBe(1)
    })

    it('gives up after resumeAttempts reconnections in a row without a new event', async () => {
      const all = eventsOf('abcdef')
      const server = await resumableServer(all, 2, () => ({ from: 99, dropAfter: 99 }))
      const out = await collect(gatewayFor(server.url, { resumeAttempts: 2 }).responses$({ model: 'm', stream: true, background: true }))
      expect(out.values.map((e) => e.sequence_number)).toEqual([0, 1, 2])
      expect(out.error).toBeInstanceOf(ConnectionError)
      expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(2)
    })

    it('does not resume a stream that is not a background response', async () => {
      const all = eventsOf('abcdef')
      const server = await resumableServer(all, 2, (after) => ({ from: after + 1 }))
      const out = await collect(gatewayFor(server.url).responses$({ model: 'm', stream: true }))
      expect(out.error).toBeInstanceOf(ConnectionError)
      expect(server.requests).toHaveLength(1)
    })
  })

  describe('retrieveResponse$ and cancelResponse$', () => {
    it('reads one snapshot with a GET', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ id: 'resp_7', status: 'in_progress' })))
      const out = await collect(gatewayFor(server.url).retrieveResponse$('resp_7'))
      expect(out).toMatchObject({ completed: true, values: [{ id: 'resp_7', status: 'in_progress' }] })
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${RESPONSES}/resp_7`])
    })

    it('ends a failed snapshot in ResponseFailedError', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ id: 'resp_7', status: 'failed', error: { code: 'x', message: 'y' } })))
      expect(await errorOf(gatewayFor(server.url).retrieveResponse$('resp_7'))).toMatchObject({ name: 'ResponseFailedError', code: 'x', responseId: 'resp_7' })
    })

    it('streams the events after startingAfter, dropping older ones the server repeats', async () => {
      const all = eventsOf('abcdef', 'resp_7')
      const server = await startServer((_, res) => {
        startSse(res)
        res.end(all.slice(3).map((e) => frame(e)).join(''))
      })
      const out = await collect(gatewayFor(server.url).retrieveResponse$('resp_7', { stream: true, startingAfter: 4 }))
      expect(out.completed).toBe(true)
      expect(out.values.map((e) => e.sequence_number)).toEqual([5, 6, 7])
      expect(server.requests[0]!.url).toBe(`${RESPONSES}/resp_7?stream=true&starting_after=4`)
    })

    it('streams from the start without startingAfter', async () => {
      const all = eventsOf('ab', 'resp_7')
      const server = await startServer((_, res) => {
        startSse(res)
        res.end(all.map((e) => frame(e)).join(''))
      })
      const out = await collect(gatewayFor(server.url).retrieveResponse$('resp_7', { stream: true }).pipe(outputText()))
      expect(out.values).toEqual(['ab'])
      expect(server.requests[0]!.url).toBe(`${RESPONSES}/resp_7?stream=true`)
    })

    it('resumes a retrieved stream that drops, from the last event seen', async () => {
      const all = eventsOf('abcdef', 'resp_7')
      let gets = 0
      const server = await startServer((req, res, raw) => {
        startSse(res)
        const after = Number(req.query.get('starting_after'))
        const events = all.filter((e) => (e.sequence_number as number) > after)
        if (++gets === 1) return res.write(events.slice(0, 2).map((e) => frame(e)).join(''), () => raw.socket.destroy())
        res.end(events.map((e) => frame(e)).join(''))
      })
      const out = await collect(gatewayFor(server.url).retrieveResponse$('resp_7', { stream: true, startingAfter: 1 }))
      expect(out.values.map((e) => e.sequence_number)).toEqual([2, 3, 4, 5, 6, 7])
      expect(server.requests.map((r) => r.query.get('starting_after'))).toEqual(['1', '3'])
    })

    it.each([-1, 1.5, Number.NaN])('refuses startingAfter %j without sending anything', async (startingAfter) => {
      const server = await startServer((_, res) => sendJson(res, 200, response()))
      const err = await errorOf(gatewayFor(server.url).retrieveResponse$('resp_7', { stream: true, startingAfter }))
      expect(err).toBeInstanceOf(InvalidRequestError)
      expect((err as Error).message).toContain('startingAfter')
      expect(server.requests).toHaveLength(0)
    })

    it('cancels with a POST to {id}/cancel and emits the Response', async () => {
      const server = await startServer((_, res) => sendJson(res, 200, response({ id: 'resp_7', status: 'cancelled' })))
      const out = await collect(gatewayFor(server.url).cancelResponse$('resp_7'))
      expect(out).toMatchObject({ completed: true, values: [{ id: 'resp_7', status: 'cancelled' }] })
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${RESPONSES}/resp_7/cancel`])
    })

    it('reports a cancel of an unknown id as a not_found HttpError', async () => {
      const server = await startServer((_, res) => sendJson(res, 404, { error: { message: 'No response with id resp_7', type: 'invalid_request_error', code: null } }))
      expect(await errorOf(gatewayFor(server.url).cancelResponse$('resp_7'))).toMatchObject({ name: 'HttpError', kind: 'not_found', gatewayMessage: 'No response with id resp_7' })
    })
  })
})

/** Waits (on real time, for socket traffic) until the scheduler holds a timer due in exactly `ms`. */
async function waitForPending(scheduler: ManualScheduler, ms: number): Promise<void> {
  const end = Date.now() + 3_000
  while (!scheduler.pendingDelays.includes(ms)) {
    if (Date.now() > end) throw new Error(`no timer of ${ms} ms (pending: ${JSON.stringify(scheduler.pendingDelays)})`)
    await new Promise((r) => setTimeout(r, 2))
  }
}


describe('waits too long for a timer', () => {
  // Node fires a timer of more than 2^31-1 ms after 1 ms: such a wait, if
  // handed to a timer, turns into a request every millisecond. Refusing the
  // setting at creation is as good as never waiting that long.
  async function requestsWithin(ms: number, options: Partial<GatewayOptions>, body: Record<string, unknown>, reply: (init: RequestInit | undefined, n: number) => Response) {
    let calls = 0
    const fetch: typeof globalThis.fetch = async (_, init) => reply(init, ++calls)
    let gateway
    try {
      gateway = createGateway({ baseUrl: 'https://gateway.test', apiKey: KEY, fetch, ...options })
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidRequestError)
      return 0
    }
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.name)
    process.on('warning', onWarning)
    const o = observe(gateway.responses$(body as never))
    await settle(ms)
    o.subscription.unsubscribe()
    process.off('warning', onWarning)
    expect(warnings).not.toContain('TimeoutOverflowWarning')
    return calls - 1
  }

  it('never polls a background response every millisecond because of a huge poll delay', async () => {
    const polls = await requestsWithin(40, { responsePoll: { initialDelayMs: 2 ** 32, maxDelayMs: 2 ** 33, jitter: 0 } }, { model: 'm', background: true }, () =>
      Response.json(response({ status: 'queued' })),
    )
    expect(polls).toBe(0)
  })

  it('never reconnects a dropped stream every millisecond because of a huge retry delay', async () => {
    const stream = frame(lifecycle('response.created', 0, { id: 'resp_bg' }))
    const replays = await requestsWithin(40, { retry: { count: 0, baseDelayMs: 2 ** 40, maxDelayMs: 2 ** 40 }, resumeAttempts: 5 }, { model: 'm', stream: true, background: true }, (_, n) =>
      new Response(n === 1 ? stream : '', { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    )
    expect(replays).toBe(0)
  })
})
