import { describe, expect, it } from 'vitest'
import { endpoints, taskEndpoint } from '../../src/index.js'
import { settingsOf } from '../../src/server/options.js'
import { routeTable } from '../../src/server/routes.js'
import { errorOf, post, RESPONSES, startProxy, startUpstream, T2V, TASK_ID } from './helpers.js'

const VIDEO_ONE = '/vendors/vendor-a/v1/video-one/generation'

describe('createGatewayHandler: which calls pass', () => {
  it('forwards each endpoint of the interface to the same path at the gateway', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url })
    const calls: [string, string, unknown?][] = [
      ['POST', RESPONSES, { model: 'm', input: 'hi' }],
      ['GET', `${RESPONSES}/resp_1`],
      ['GET', `${RESPONSES}/resp_1?stream=true`],
      ['GET', `${RESPONSES}/resp_1?stream=true&starting_after=3`],
      ['POST', `${RESPONSES}/resp_1/cancel`],
      ['POST', T2V, { prompt: 'A kite' }],
      ['GET', `${T2V}/${TASK_ID}`],
      ['GET', `${VIDEO_ONE}/${TASK_ID}`],
      ['GET', `/vendors/vendor-b/v1/i2v-spark/generation/${TASK_ID}`],
      ['GET', `/vendors/vendor-c/v1/video-two/generation/${TASK_ID}`],
      ['GET', `/vendors/vendor-d/v1/image/edit/${TASK_ID}`],
      ['GET', `/vendors/vendor-d/v1/i2i-preview/generation/${TASK_ID}`],
    ]
    for (const [method, path, body] of calls) {
      const res = body === undefined ? await fetch(base + path, { method }) : await post(base + path, body)
      expect(res.status, `${method} ${path}`).toBe(200)
    }
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(calls.map(([method, path]) => `${method} ${path}`))
  })

  it('refuses paths outside the interface with a JSON 404, and sends nothing', async () => {
    const upstream = await startUpstream()
    const { url, base } = await startProxy({ baseUrl: upstream.url })
    for (const path of ['/vendors/vendor-a/v1/models', '/files/x.mp4', `${RESPONSES}/resp_1/steps`, T2V.replace('t2v-spark', 't2v-other')]) {
      const res = await fetch(base + path)
      expect(res.status, path).toBe(404)
      expect((await errorOf(res)).code).toBe('not_found')
    }
    expect((await fetch(`${url}/other/vendors/vendor-a/v1/responses`)).status).toBe(404)
    // Creation is the interface's for text-to-video only: other models' creation paths are the app's to allow.
    expect((await post(base + VIDEO_ONE, { prompt: 'x' })).status).toBe(404)
    expect(upstream.requests).toEqual([])
  })

  it('allows the creation and results of task endpoints the app registers', async () => {
    const upstream = await startUpstream()
    const custom = taskEndpoint({ vendor: 'vendor-x', model: 'clip-9', kind: 'video' })
    const { base } = await startProxy({ baseUrl: upstream.url, taskEndpoints: [endpoints.videoOne, custom] })
    expect((await post(base + VIDEO_ONE, { image_url: 'https://example.com/a.png' })).status).toBe(200)
    expect((await post(base + custom.createPath!, { anything: [1, 2] })).status).toBe(200)
    expect((await fetch(`${base}${custom.resultPath}/${TASK_ID}`)).status).toBe(200)
    // A registered creation takes any JSON object, as createTask$ sends it; nothing else.
    const res = await post(base + custom.createPath!, [1, 2])
    expect(res.status).toBe(400)
    expect((await errorOf(res)).message).toMatch(/must be an object/)
    expect(upstream.requests).toHaveLength(3)
  })

  it('answers a wrong method with a JSON 405 naming the right one', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url })
    for (const [method, path, allow] of [
      ['GET', RESPONSES, 'POST'],
      ['DELETE', `${RESPONSES}/resp_1`, 'GET'],
      ['GET', T2V, 'POST'],
      ['POST', `${T2V}/${TASK_ID}`, 'GET'],
      ['PUT', RESPONSES, 'POST'],
    ] as const) {
      const res = await fetch(base + path, { method })
      expect(res.status, `${method} ${path}`).toBe(405)
      expect(res.headers.get('allow')).toBe(allow)
      expect((await errorOf(res)).code).toBe('method_not_allowed')
    }
    expect(upstream.requests).toEqual([])
  })

  it('refuses ids that could reach another resource, and queries other than the replay one', async () => {
    const upstream = await startUpstream()
    const { base } = await startProxy({ baseUrl: upstream.url })
    const refused = [
      `${RESPONSES}/resp%2F1`,
      `${RESPONSES}/resp%201`,
      `${RESPONSES}/..%2Fx/cancel`,
      `${T2V}/not-a-uuid`,
      `${RESPONSES}/resp_1?stream=false`,
      `${RESPONSES}/resp_1?starting_after=2`,
      `${RESPONSES}/resp_1?stream=true&starting_after=-1`,
      `${RESPONSES}/resp_1?stream=true&starting_after=2&starting_after=3`,
      `${RESPONSES}/resp_1?stream=true&include=secrets`,
      `${T2V}/${TASK_ID}?x=1`,
    ]
    for (const path of refused) {
      const res = await fetch(base + path, { method: path.endsWith('/cancel') ? 'POST' : 'GET' })
      expect(res.status, path).toBe(400)
    }
    expect((await post(`${base}${RESPONSES}?stream=true`, { model: 'm' })).status).toBe(400)
    expect(upstream.requests).toEqual([])
  })
})

describe('routeTable', () => {
  it('refuses "." and ".." as response ids, even where no URL parser has removed them', () => {
    const routes = routeTable(settingsOf({ baseUrl: 'https://gateway.example', apiKey: 'sk-placeholder-key', allowUnauthenticated: true }))
    for (const path of [`${RESPONSES}/.`, `${RESPONSES}/..`, `${RESPONSES}/../cancel`, `${RESPONSES}/./cancel`]) {
      const method = path.endsWith('/cancel') ? 'POST' : 'GET'
      expect(() => routes(method, path, new URLSearchParams()), path).toThrow(expect.objectContaining({ status: 400, code: 'invalid_id' }))
    }
    expect(routes('GET', `${RESPONSES}/.a.`, new URLSearchParams())).toEqual({ method: 'GET', path: `${RESPONSES}/.a.` })
    expect(routes('POST', `${RESPONSES}/..b/cancel`, new URLSearchParams())).toEqual({ method: 'POST', path: `${RESPONSES}/..b/cancel` })
  })
})
