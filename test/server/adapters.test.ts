import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createGatewayHandler, expressMiddleware, type NextFunction } from '../../src/server/index.js'
import { isInvalidRequestError } from '../../src/index.js'
import { KEY, RESPONSES, startUpstream } from './helpers.js'

/** A server whose requests first pass `before` (a stand-in for other Express middleware), then the adapter, then a fallback. */
async function expressLike(
  middleware: ReturnType<typeof expressMiddleware>,
  before: (req: IncomingMessage & { originalUrl?: string; body?: unknown }) => Promise<void> = async () => {},
) {
  const server = createServer(async (req: IncomingMessage & { originalUrl?: string; body?: unknown }, res: ServerResponse) => {
    await before(req)
    const next: NextFunction = (error) => {
      res.writeHead(error ? 500 : 200, { 'content-type': 'text/plain' })
      res.end(error ? 'next(error)' : 'next()')
    }
    middleware(req, res, next)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('adapters', () => {
  it('expressMiddleware passes requests outside the base path on to next()', async () => {
    const upstream = await startUpstream()
    const url = await expressLike(expressMiddleware(createGatewayHandler({ baseUrl: upstream.url, apiKey: KEY, allowUnauthenticated: true })))
    expect(await (await fetch(`${url}/about`)).text()).toBe('next()')
    expect((await fetch(`${url}/api/rxgate${RESPONSES}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m"}' })).status).toBe(200)
    expect(upstream.requests).toHaveLength(1)
  })

  it('expressMiddleware reads the path before mounting, and a body a parser has already read', async () => {
    const upstream = await startUpstream()
    const middleware = expressMiddleware(createGatewayHandler({ baseUrl: upstream.url, apiKey: KEY, basePath: '/api/ai', allowUnauthenticated: true }))
    // As `app.use('/api/ai', express.json(), middleware)` leaves the request: the URL cut, the body parsed.
    const url = await expressLike(middleware, async (req) => {
      req.originalUrl = req.url
      req.url = req.url!.slice('/api/ai'.length)
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    })
    const res = await fetch(`${url}/api/ai${RESPONSES}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ "model": "m", "input": "hi" }' })
    expect(res.status).toBe(200)
    expect(upstream.requests[0]!.body).toBe('{"model":"m","input":"hi"}')
  })

  it('refuses bad options at once, naming each', () => {
    const attempt = () => createGatewayHandler({ baseUrl: '/relative', apiKey: ' ', basePath: 'api', maxBodyBytes: 0 })
    expect(attempt).toThrow(/baseUrl: must be an http.*apiKey: is required.*basePath: must be a path.*maxBodyBytes/)
    let error: unknown
    try {
      attempt()
    } catch (e) {
      error = e
    }
    expect(isInvalidRequestError(error)).toBe(true)
  })

  it('is a plain fetch-style handler: Request in, Response out', async () => {
    const upstream = await startUpstream()
    const handler = createGatewayHandler({ baseUrl: upstream.url, apiKey: KEY, basePath: '/v/gw', allowUnauthenticated: true })
    expect(handler.basePath).toBe('/v/gw')
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m"}' }
    expect((await handler(new Request(`http://localhost/v/gw${RESPONSES}`, init))).status).toBe(200)
    expect((await handler(new Request(`http://localhost/api/rxgate${RESPONSES}`, init))).status).toBe(404)
  })
})
