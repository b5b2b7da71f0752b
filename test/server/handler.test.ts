import { describe, expect, it, vi } from 'vitest'
import { endpoints, InvalidRequestError, taskEndpoint, type TaskEndpoint } from '../../src/index.js'
import { createGatewayHandler, type GatewayHandlerOptions } from '../../src/server/index.js'
import { call, callPost, errorOf, fakeFetch, KEY, openUnlessAuthorized, RESPONSES, T2V, TASK_ID } from './helpers.js'

const BASE_URL = 'https://gateway.example'

function setup(options: Partial<GatewayHandlerOptions> = {}, reply?: Parameters<typeof fakeFetch>[0]) {
  const gateway = fakeFetch(reply)
  const handler = createGatewayHandler(openUnlessAuthorized({ baseUrl: BASE_URL, apiKey: KEY, fetch: gateway.fetch, onError: () => {}, ...options }))
  return { handler, calls: gateway.calls }
}

/** Status, code and message of a refusal. */
async function refusalOf(res: Response): Promise<[number, string, string]> {
  const error = await errorOf(res)
  return [res.status, error.code, error.message]
}

describe('createGatewayHandler: answers of its own', () => {
  it('refuses a request outside its base path, naming where it is served', async () => {
    const { handler, calls } = setup()
    for (const url of [`http://localhost/api/rxgateX${RESPONSES}`, `http://localhost/api/rxgate`, `http://localhost/other${RESPONSES}`]) {
      expect(await refusalOf(await handler(new Request(url, { method: 'POST' }))), url).toEqual([404, 'not_found', 'The gateway is served under /api/rxgate/.'])
    }
    expect(calls).toEqual([])
  })

  it('refuses an unknown path under the base path, naming it', async () => {
    const { handler } = setup()
    expect(await refusalOf(await handler(call('/vendors/vendor-a/v1/models')))).toEqual([404, 'not_found', 'No gateway endpoint is served at "/vendors/vendor-a/v1/models".'])
    expect(await refusalOf(await handler(call(`${RESPONSES}/resp_1/cancel/now`, { method: 'POST' })))).toEqual([404, 'not_found', `No gateway endpoint is served at "${RESPONSES}/resp_1/cancel/now".`])
  })

  it('says which method to use', async () => {
    const { handler } = setup()
    const res = await handler(call(RESPONSES))
    expect(res.headers.get('allow')).toBe('POST')
    expect(await refusalOf(res)).toEqual([405, 'method_not_allowed', 'Method GET is not allowed here; use POST.'])
  })

  it('explains refused queries and ids', async () => {
    const { handler, calls } = setup()
    const cases: [string, string, string][] = [
      [`${RESPONSES}?stream=true`, 'unexpected_query', 'This endpoint takes no query parameters.'],
      [`${RESPONSES}/resp_1?stream=true&stream=true`, 'unexpected_query', 'Retrieval takes only ?stream=true, optionally with &starting_after=<sequence number>.'],
      [`${RESPONSES}/resp_1?stream=1`, 'unexpected_query', 'Retrieval takes only ?stream=true, optionally with &starting_after=<sequence number>.'],
      [`${RESPONSES}/resp_1?stream=true&starting_after=1e3`, 'invalid_value', 'starting_after must be an integer of at least 0 (got "1e3").'],
      [`${RESPONSES}/resp_1?stream=true&starting_after=1234567890123456`, 'invalid_value', 'starting_after must be an integer of at least 0 (got "1234567890123456").'],
      [`${RESPONSES}/resp%201`, 'invalid_id', 'The response id must be letters, digits, "_", "-", "." or ":" (got "resp%201").'],
      [`${T2V}/not-a-uuid`, 'invalid_task_id', 'The task id must be a UUID (got "not-a-uuid").'],
    ]
    for (const [path, code, message] of cases) {
      const method = path === `${RESPONSES}?stream=true` ? 'POST' : 'GET'
      expect(await refusalOf(await handler(call(path, { method }))), path).toEqual([400, code, message])
    }
    expect(calls).toEqual([])
  })

  it('passes a replay position of up to 15 digits on as a number', async () => {
    const { handler, calls } = setup()
    for (const after of ['0', '12', '007', '999999999999999']) expect((await handler(call(`${RESPONSES}/resp_1?stream=true&starting_after=${after}`))).status).toBe(200)
    expect(calls.map((c) => c.url)).toEqual(['0', '12', '7', '999999999999999'].map((n) => `${BASE_URL}${RESPONSES}/resp_1?stream=true&starting_after=${n}`))
  })

  it('names the kind of body in a refused body’s message, with the first field as param', async () => {
    const { handler, calls } = setup({ taskEndpoints: [taskEndpoint({ vendor: 'vendor-x', model: 'clip-9', kind: 'video' })] })
    const response = await handler(callPost(RESPONSES, { model: 'm', temperature: 3 }))
    expect(response.status).toBe(400)
    expect((await response.json()).error).toEqual({
      message: 'Invalid response request: temperature: must be from 0 to 2 (got 3). Nothing was sent.',
      type: 'invalid_request_error',
      param: 'temperature',
      code: 'invalid_request',
      issues: [{ path: 'temperature', message: 'must be from 0 to 2 (got 3)' }],
    })
    expect((await errorOf(await handler(callPost(T2V, { prompt: 'x', duration: 7 })))).message).toBe('Invalid text-to-video request: duration: must be 5 or 10. Nothing was sent.')
    expect((await errorOf(await handler(callPost('/vendors/vendor-x/v1/clip-9/generation', 'null')))).message).toMatch(/^Invalid task creation body: must be an object/)
    expect(calls).toEqual([])
  })

  it('takes any JSON object, and only an object, as a registered task’s creation body', async () => {
    const custom = taskEndpoint({ vendor: 'vendor-x', model: 'clip-9', kind: 'video' })
    const { handler, calls } = setup({ taskEndpoints: [custom] })
    for (const body of ['null', '"a prompt"', '7', 'true', '[1]']) expect((await handler(callPost(custom.createPath!, body))).status, body).toBe(400)
    expect((await handler(callPost(custom.createPath!, '{"anything":[1]}'))).status).toBe(200)
    expect(calls.map((c) => c.body)).toEqual(['{"anything":[1]}'])
  })

  it('keeps the interface’s rules for text-to-video even when the app registers its endpoint', async () => {
    const { handler, calls } = setup({ taskEndpoints: [endpoints.t2vSpark] })
    expect((await handler(callPost(T2V, { prompt: 'x', duration: 7 }))).status).toBe(400)
    expect(calls).toEqual([])
  })

  it('reads a result path under the name of its first endpoint, for the allow-list', async () => {
    // An app endpoint that shares the interface's result path does not rename it.
    const alias: TaskEndpoint = { ...endpoints.t2vSpark, name: 'app/alias', createPath: undefined }
    const { handler } = setup({ models: ['vendor-b/t2v-spark'], taskEndpoints: [alias] })
    expect((await handler(call(`${T2V}/${TASK_ID}`))).status).toBe(200)
  })

  it('keeps the allow-list for task reads too, and leaves response retrieval and cancellation alone', async () => {
    const { handler, calls } = setup({ models: ['gpt-4.1-mini'] })
    expect(await refusalOf(await handler(call(`${T2V}/${TASK_ID}`)))).toEqual([403, 'model_not_allowed', 'The model "vendor-b/t2v-spark" is not allowed here.'])
    expect((await handler(call(`${RESPONSES}/resp_1`))).status).toBe(200)
    expect((await handler(call(`${RESPONSES}/resp_1/cancel`, { method: 'POST' }))).status).toBe(200)
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE_URL}${RESPONSES}/resp_1`, `POST ${BASE_URL}${RESPONSES}/resp_1/cancel`])
  })

  it('refuses a caller authorize turns away, saying why', async () => {
    const { handler } = setup({ authorize: () => false })
    expect(await refusalOf(await handler(callPost(RESPONSES, { model: 'm' })))).toEqual([401, 'unauthorized', 'This call needs a signed-in session.'])
  })

  it('answers a failure it did not expect with a 500 that points to the log', async () => {
    const onError = vi.fn()
    const { handler } = setup({
      onError,
      authorize: () => {
        throw new Error(`store down (token ${KEY})`)
      },
    })
    expect(await refusalOf(await handler(callPost(RESPONSES, { model: 'm' })))).toEqual([500, 'internal_error', 'The gateway handler failed; see the server log.'])
    expect(onError).toHaveBeenCalledTimes(1)
    expect(String(onError.mock.calls[0]![0])).not.toContain(KEY)
  })

  it('answers 499 and logs nothing when the failure comes from the caller leaving', async () => {
    const onError = vi.fn()
    const caller = new AbortController()
    const { handler, calls } = setup({
      onError,
      authorize: () => {
        caller.abort()
        throw new DOMException('The operation was aborted.', 'AbortError')
      },
    })
    const left = await handler(new Request(callPost(RESPONSES, { model: 'm' }), { signal: caller.signal }))
    expect(await refusalOf(left)).toEqual([499, 'client_closed', 'The caller went away.'])
    expect(onError).not.toHaveBeenCalled()
    expect(calls).toEqual([])
  })

  it('answers an InvalidRequestError naming no field (thrown by authorize, say) with a JSON 400 whose param is null', async () => {
    const { handler, calls } = setup({
      authorize: () => {
        throw new InvalidRequestError([], 'session')
      },
    })
    const res = await handler(callPost(RESPONSES, { model: 'm' }))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { message: expect.stringMatching(/^Invalid session/), type: 'invalid_request_error', param: null, code: 'invalid_request', issues: [] } })
    expect(calls).toEqual([])
  })
})
