import { createServer, request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createGatewayHandler, nodeListener, type GatewayHandlerOptions } from '../../src/server/index.js'
import { KEY, listen, RESPONSES, startUpstream } from '../server/helpers.js'

// A relay open to every caller (allowUnauthenticated: true) is meant for this
// machine only. A page on another site can still reach it on 127.0.0.1 by
// making its own name resolve there (DNS rebinding), and its fetch is then
// "same-origin". Each test runs the relay on a real socket and sends what
// such a page's browser sends: the site's name in Host and Origin.

/** The relay behind node:http on 127.0.0.1, in front of the stub gateway. */
async function relay(options: Omit<GatewayHandlerOptions, 'apiKey'>) {
  const handler = createGatewayHandler({ apiKey: KEY, onError: () => {}, ...options })
  return listen(createServer(nodeListener(handler)))
}

const BODY = { model: 'gpt-4.1-mini', input: 'Say hi' }

/** POSTs the body to the relay at `url` with the headers given as they are (a forged `Host` included); resolves with the status and body. */
function postAs(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(BODY)
  return new Promise((resolve, reject) => {
    const { port } = new URL(url)
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('the relay open to every caller, against DNS rebinding', () => {
  it('answers a page of another site whose name resolves to 127.0.0.1 with a 403, and spends nothing', async () => {
    const upstream = await startUpstream()
    const url = await relay({ baseUrl: upstream.url, allowUnauthenticated: true })
    const port = new URL(url).port
    const path = `/api/rxgate${RESPONSES}`
    const calls = [
      [`evil.test:${port}`, `http://evil.test:${port}`],
      [`evil.test:${port}`, undefined],
      [`127.0.0.1:${port}`, `http://evil.test:${port}`],
      [`127.0.0.1:${port}`, 'null'],
      [`localhost.evil.test:${port}`, undefined],
      ['127.0.0.1.evil.test', undefined],
    ] as const
    for (const [host, origin] of calls) {
      const reply = await postAs(url, path, { host, ...(origin && { origin }) })
      expect([reply.status, (JSON.parse(reply.body) as { error: { code: string } }).error.code], `${host} ${origin}`).toEqual([403, 'host_not_allowed'])
    }
    // A path written as another host stays a path; a Host that names one through "@" is not read at all.
    expect((await postAs(url, `//127.0.0.1:${port}${path}`, { host: `evil.test:${port}` })).status).toBe(403)
    expect((await postAs(url, path, { host: `evil.test@127.0.0.1:${port}` })).status).toBe(400)
    expect(upstream.requests).toEqual([])
  })

  it('lets calls to a loopback name, from a loopback page, through', async () => {
    const upstream = await startUpstream()
    const url = await relay({ baseUrl: upstream.url, allowUnauthenticated: true })
    const port = new URL(url).port
    const calls = [
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      [`localhost:${port}`, `http://localhost:${port}`],
      ['app.localhost', 'https://app.localhost'],
      ['127.0.0.2', undefined],
      [`[::1]:${port}`, `http://[::1]:${port}`],
      ['LocalHost', undefined],
    ] as const
    for (const [host, origin] of calls) {
      expect((await postAs(url, `/api/rxgate${RESPONSES}`, { host, ...(origin && { origin }) })).status, `${host} ${origin}`).toBe(200)
    }
    expect(upstream.requests).toHaveLength(6)
  })

  it('leaves every name to authorize when there is one', async () => {
    const upstream = await startUpstream()
    const url = await relay({ baseUrl: upstream.url, authorize: () => true })
    expect((await postAs(url, `/api/rxgate${RESPONSES}`, { host: 'app.example', origin: 'https://app.example' })).status).toBe(200)
    expect(upstream.requests).toHaveLength(1)
  })
})
