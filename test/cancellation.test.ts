import type http from 'node:http'
import { take } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '../src/index.js'
import { observe } from './helpers/collect.js'
import { delta, frame, KEY, lifecycle, response, TRANSPORTS } from './helpers/fixtures.js'
import { ManualScheduler } from './helpers/scheduler.js'
import { sendJson, settle, startServer, startSse, waitFor } from './helpers/server.js'

const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe.each(TRANSPORTS)('unsubscribing over $name', ({ options }) => {
  const setup = (url: string, more: Partial<GatewayOptions> = {}) => {
    const scheduler = new ManualScheduler()
    const gateway = createGateway({ baseUrl: url, apiKey: KEY, scheduler, retry: { count: 3, baseDelayMs: 1_000 }, resumeAttempts: 3, ...options, ...more })
    return { scheduler, gateway }
  }

  it('before the headers: aborts the request and clears the timeout', async () => {
    const server = await startServer(() => {})
    const { scheduler, gateway } = setup(server.url)
    const o = observe(gateway.responses$({ model: 'm' }))
    await server.request(1)
    expect(scheduler.pending).toBe(1) // the timeout
    o.subscription.unsubscribe()
    await server.requests[0]!.closedEarly
    expect(scheduler.pending).toBe(0)
    expect(o).toMatchObject({ values: [], error: undefined, completed: false })
  })

  it('in the middle of a JSON body: aborts the request', async () => {
    const server = await startServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' })
      res.write('{"id":"resp_1","object":"response",')
    })
    const { scheduler, gateway } = setup(server.url)
    const o = observe(gateway.retrieveResponse$('resp_1'))
    await server.request(1)
    await settle()
    o.subscription.unsubscribe()
    await server.requests[0]!.closedEarly
    expect(scheduler.pending).toBe(0)
    expect(o.values).toEqual([])
  })

  it('in the middle of a stream: aborts the request and nothing more is emitted', async () => {
    let stream!: http.ServerResponse
    const server = await startServer((_, res) => {
      stream = res
      startSse(res)
      res.write(frame(lifecycle('response.created', 0)) + frame(delta(1, 'a')))
    })
    const { scheduler, gateway } = setup(server.url)
    const o = observe(gateway.responses$({ model: 'm', stream: true }))
    await waitFor(() => o.values.length === 2)
    o.subscription.unsubscribe()
    await server.requests[0]!.closedEarly
    stream.write(frame(delta(2, 'b')))
    await settle()
    expect(o.values).toHaveLength(2)
    expect(scheduler.pending).toBe(0)
  })

  it('through an operator that stops early (take): aborts the stream', async () => {
    const server = await startServer((_, res) => {
      startSse(res)
      res.write(frame(lifecycle('response.created', 0)) + frame(delta(1, 'a')) + frame(delta(2, 'b')))
    })
    const { scheduler, gateway } = setup(server.url)
    const o = observe(gateway.responses$({ model: 'm', stream: true }).pipe(take(2)))
    expect((await o.done).values).toHaveLength(2)
    await server.requests[0]!.closedEarly
    expect(scheduler.pending).toBe(0)
  })

  it('while waiting to retry: clears the wait, and no retry is ever sent', async () => {
    const server = await startServer((_, res) => sendJson(res, 503, { detail: 'busy' }))
    const { scheduler, gateway } = setup(server.url)
    const o = observe(gateway.retrieveResponse$('resp_1'))
    await waitFor(() => scheduler.pendingDelays.length === 1 && scheduler.pendingDelays[0]! < 1_000, 3_000, 'the retry wait')
    o.subscription.unsubscribe()
    expect(scheduler.pending).toBe(0)
    scheduler.advanceBy(60_000)
    await settle()
    expect(server.requests).toHaveLength(1)
  })

  it('while waiting to poll: clears the wait, and no poll is ever sent', async () => {
    const server = await startServer((_, res) => sendJson(res, 200, response({ id: 'resp_bg', status: 'queued' })))
    const { scheduler, gateway } = setup(server.url, { responsePoll: { initialDelayMs: 5_000, jitter: 0 } })
    const o = observe(gateway.responses$({ model: 'm', background: true }))
    await waitFor(() => o.values.length === 1)
    expect(scheduler.pendingDelays).toEqual([5_000])
    o.subscription.unsubscribe()
    expect(scheduler.pending).toBe(0)
    scheduler.advanceBy(60_000)
    await settle()
    expect(server.requests).toHaveLength(1)
  })

  it('during a poll: aborts the poll request', async () => {
    const server = await startServer((req, res) => {
      if (req.method === 'POST') sendJson(res, 200, response({ id: 'resp_bg', status: 'queued' }))
    })
    const { scheduler, gateway } = setup(server.url, { responsePoll: { initialDelayMs: 0, jitter: 0 } })
    const o = observe(gateway.responses$({ model: 'm', background: true }))
    await waitFor(() => o.values.length === 1)
    scheduler.advanceBy(0)
    const poll = await server.request(2)
    expect(poll.method).toBe('GET')
    o.subscription.unsubscribe()
    await poll.closedEarly
    expect(scheduler.pending).toBe(0)
  })

  it('while waiting to resume a dropped stream: clears the wait, and no replay is requested', async () => {
    const server = await startServer((_, res, raw) => {
      startSse(res)
      res.write(frame(lifecycle('response.created', 0, { id: 'resp_bg' })), () => raw.socket.destroy())
    })
    const { scheduler, gateway } = setup(server.url)
    const o = observe(gateway.responses$({ model: 'm', stream: true, background: true }))
    await waitFor(() => o.values.length === 1 && scheduler.pendingDelays.length === 1 && scheduler.pendingDelays[0]! < 1_000, 3_000, 'the resume wait')
    o.subscription.unsubscribe()
    expect(scheduler.pending).toBe(0)
    scheduler.advanceBy(60_000)
    await settle()
    expect(server.requests).toHaveLength(1)
  })

  it('during a resumed stream: aborts the replay request', async () => {
    const server = await startServer((req, res, raw) => {
      startSse(res)
      if (req.method === 'POST') return res.write(frame(lifecycle('response.created', 0, { id: 'resp_bg' })), () => raw.socket.destroy())
      res.write(frame(delta(1, 'a')))
    })
    const { scheduler, gateway } = setup(server.url, { retry: { baseDelayMs: 0 } })
    const o = observe(gateway.responses$({ model: 'm', stream: true, background: true }))
    await waitFor(() => o.values.length === 1 && scheduler.pendingDelays.length === 1 && scheduler.pendingDelays[0] === 0, 3_000, 'the resume wait')
    scheduler.advanceBy(0)
    const replay = await server.request(2)
    await waitFor(() => o.values.length === 2)
    o.subscription.unsubscribe()
    await replay.closedEarly
    expect(scheduler.pending).toBe(0)
  })
})

describe.each(TRANSPORTS)('unsubscribing with real timers over $name', ({ options }) => {
  // Timers are counted right before and right after the synchronous unsubscribe,
  // so nothing else can start or end one in between.

  it('clears the retry wait', async () => {
    const server = await startServer((_, res) => sendJson(res, 503, ''))
    const gateway = createGateway({ baseUrl: server.url, apiKey: KEY, retry: { count: 3, baseDelayMs: 60_000 }, ...options })
    const o = observe(gateway.retrieveResponse$('resp_1'))
    await server.request(1)
    await settle(30)
    const during = timeouts()
    o.subscription.unsubscribe()
    expect(timeouts()).toBe(during - 1)
    expect(server.requests).toHaveLength(1)
  })

  it('clears the silence timeout when a stream is cancelled', async () => {
    const server = await startServer((_, res) => {
      startSse(res)
      res.write(frame(lifecycle('response.created', 0)))
    })
    const gateway = createGateway({ baseUrl: server.url, apiKey: KEY, ...options })
    const o = observe(gateway.responses$({ model: 'm', stream: true }))
    await waitFor(() => o.values.length === 1)
    const during = timeouts()
    o.subscription.unsubscribe()
    expect(timeouts()).toBe(during - 1)
    await server.requests[0]!.closedEarly
  })

  it('clears the poll wait', async () => {
    const server = await startServer((_, res) => sendJson(res, 200, response({ status: 'queued' })))
    const gateway = createGateway({ baseUrl: server.url, apiKey: KEY, responsePoll: { initialDelayMs: 60_000 }, ...options })
    const o = observe(gateway.responses$({ model: 'm', background: true }))
    await waitFor(() => o.values.length === 1)
    const during = timeouts()
    o.subscription.unsubscribe()
    expect(timeouts()).toBe(during - 1)
    await settle()
    expect(server.requests).toHaveLength(1)
  })
})
