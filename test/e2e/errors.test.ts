import { randomUUID } from 'node:crypto'
import { inspect } from 'node:util'
import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { ConnectionError, endpoints, HttpError, ResponseFailedError, type Response } from '../../src/index.js'
import { call, errorOf, gatewayFor, MODEL, observe, requestsTo, simulator } from './helpers.js'

const RESPONSES = '/vendors/vendor-a/v1/responses'
const WRONG_KEY = 'sk-wrong-4f1d9a0b7c3e2a6d'

/** Everything a user could print of an error. */
const printed = (err: unknown) => [String(err), (err as Error).message, JSON.stringify(err), inspect(err, { depth: 10 })].join('\n')

describe('rejections the simulator answers, as a raw client sees them', () => {
  it('400 for a body that breaks a rule, naming the field, in the OpenAI error shape', async () => {
    const sim = await simulator()
    const res = await call(sim, RESPONSES, { body: { model: MODEL, input: 'hi', temperature: 3 } })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { message: string; param: string; code: string; type: string } }
    expect(body.error).toMatchObject({ param: 'temperature', code: 'invalid_value', type: 'invalid_request_error' })
    expect(body.error.message).toMatch(/temperature/)
  })

  it('400 for a body that is not JSON', async () => {
    const sim = await simulator()
    const res = await call(sim, RESPONSES, { body: '{"model": ' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_json')
  })

  it('401 without a token, with WWW-Authenticate', async () => {
    const sim = await simulator()
    const res = await fetch(`${sim.url}${RESPONSES}`, { method: 'POST', body: '{}' })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
  })
})

describe('errors end to end', () => {
  const options = {}
  describe('401 wrong key', () => {
    it.each([
      ['responses$ (JSON)', 'POST', (g: ReturnType<typeof gatewayFor>) => g.responses$({ model: MODEL, input: 'hi' })],
      ['responses$ (stream)', 'POST', (g: ReturnType<typeof gatewayFor>) => g.responses$({ model: MODEL, input: 'hi', stream: true })],
      ['task$', 'GET', (g: ReturnType<typeof gatewayFor>) => g.task$(endpoints.t2vSpark, randomUUID())],
      ['textToVideo$', 'POST', (g: ReturnType<typeof gatewayFor>) => g.textToVideo$({ prompt: 'x' })],
    ] as const)('%s: HttpError kind auth, sent once, the key in no form of the error', async (_, method, run) => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, { ...options, apiKey: WRONG_KEY })
      const err = await errorOf(run(gateway))
      expect(err).toBeInstanceOf(HttpError)
      expect(err).toMatchObject({ status: 401, kind: 'auth', code: 'invalid_api_key', method })
      expect(printed(err)).not.toContain(WRONG_KEY)
      expect(printed(err)).not.toContain(WRONG_KEY.slice(3))
      expect(sim.requests).toHaveLength(1)
      expect(sim.requests[0]!.status).toBe(401)
    })
  })

  describe('400 from the server, through requests the client lets through', () => {
    it('a creation body the interface does not describe (createTask$ sends it as given): not retried', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.createTask$(endpoints.videoOne, { negative_prompt: 'no prompt here' }))
      expect(err).toBeInstanceOf(HttpError)
      expect(err).toMatchObject({ status: 400, kind: 'rejected', code: 'missing_required_parameter', method: 'POST', path: endpoints.videoOne.createPath })
      expect((err as HttpError).gatewayMessage).toMatch(/prompt/)
      expect(requestsTo(sim, 'POST', endpoints.videoOne.createPath!)).toHaveLength(1)
    })

    it('a text-to-video body sent through createTask$, bypassing textToVideo$ checks: the server names duration', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.createTask$(endpoints.t2vSpark, { prompt: 'x', duration: 7 }))
      expect(err).toMatchObject({ status: 400, kind: 'rejected' })
      expect((err as HttpError).gatewayMessage).toMatch(/duration/)
    })

    it('previous_response_id that does not exist', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'hi', previous_response_id: 'resp_missing' }))
      expect(err).toMatchObject({ status: 400, kind: 'rejected', code: 'previous_response_not_found' })
      expect((err as HttpError).gatewayMessage).toMatch(/resp_missing/)
    })

    it('cancelling a response that was not created in the background', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const r = await firstValueFrom(gateway.responses$({ model: MODEL, input: 'hi' }))
      const err = await errorOf(gateway.cancelResponse$(r.id))
      expect(err).toMatchObject({ status: 400, kind: 'rejected', code: 'not_cancellable', method: 'POST' })
      expect(requestsTo(sim, 'POST', `${RESPONSES}/${r.id}/cancel`)).toHaveLength(1)
    })
  })

  describe('404', () => {
    it('an unknown response id', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.retrieveResponse$('resp_nope'))
      expect(err).toMatchObject({ status: 404, kind: 'not_found', code: 'not_found', method: 'GET' })
      expect(requestsTo(sim, 'GET', `${RESPONSES}/resp_nope`)).toHaveLength(1)
    })

    it('a task read at another model\'s result path', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const created = await firstValueFrom(gateway.createTask$(endpoints.videoOne, { prompt: 'x' }))
      const err = await errorOf(gateway.task$(endpoints.videoTwo, created.taskId))
      expect(err).toMatchObject({ status: 404, kind: 'not_found', gatewayMessage: 'task not found' })
    })
  })

  describe('an unreachable gateway', () => {
    const closedGateway = async () => {
      const sim = await simulator()
      await sim.close()
      return sim.url
    }

    it('ConnectionError with sent: false, saying to check baseUrl', async () => {
      const url = await closedGateway()
      const gateway = gatewayFor({ url, apiKey: 'sk-unreachable-0a1b2c3d4e5f' }, options)
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'hi' }))
      expect(err).toBeInstanceOf(ConnectionError)
      expect(err).toMatchObject({ method: 'POST', path: RESPONSES, sent: false })
      expect((err as Error).message).toMatch(/check baseUrl and the network/)
    })

    it('a short API key does not garble the library\'s own message', async () => {
      const url = await closedGateway()
      const gateway = gatewayFor({ url, apiKey: 'k' }, options)
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'hi' }))
      expect(err).toBeInstanceOf(ConnectionError)
      // The key 'k' is not in this message: nothing came from the gateway, so there is nothing to redact.
      expect((err as Error).message).toMatch(/check baseUrl and the network/)
    })
  })

  describe('failed responses', () => {
    it('JSON: ResponseFailedError with the id, code and message', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const err = await errorOf(gateway.responses$({ model: MODEL, input: 'please [fail]' }))
      expect(err).toBeInstanceOf(ResponseFailedError)
      const failed = err as ResponseFailedError
      expect(failed.responseId).toMatch(/^resp_/)
      expect(failed.code).toBe('server_error')
      expect(failed.message).toMatch(/\[fail\]/)
      expect((failed.response as Response).status).toBe('failed')
    })

    it('stream: the opening events, then ResponseFailedError for the same response', async () => {
      const sim = await simulator()
      const gateway = gatewayFor(sim, options)
      const o = await observe(gateway.responses$({ model: MODEL, input: 'stream [fail]', stream: true })).done
      expect(o.values.map((e) => e.type)).toEqual(['response.created', 'response.in_progress'])
      expect(o.error).toBeInstanceOf(ResponseFailedError)
      const id = (o.values[0] as { response: Response }).response.id
      expect(o.error).toMatchObject({ responseId: id, code: 'server_error' })
    })

    it('background: the snapshots, then ResponseFailedError when the poll sees failed', async () => {
      const sim = await simulator({ timeScale: { pendingMs: 60, processingMs: 60 } })
      const gateway = gatewayFor(sim, options)
      const o = await observe(gateway.responses$({ model: MODEL, instructions: '[fail]', input: 'bg', background: true, store: true })).done
      expect(o.error).toBeInstanceOf(ResponseFailedError)
      expect(o.values.length).toBeGreaterThanOrEqual(1)
      expect(o.values.every((r) => r.status === 'queued' || r.status === 'in_progress')).toBe(true)
      expect(o.error).toMatchObject({ responseId: o.values[0]!.id })
    })
  })
})
