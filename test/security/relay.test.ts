import { createServer } from 'node:http'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isInvalidRequestError } from '../../src/index.js'
import { createGatewayHandler, nodeListener, type GatewayHandlerOptions } from '../../src/server/index.js'
import { KEY, listen, post, RESPONSES, startUpstream } from '../server/helpers.js'

// The relay holds the gateway key: each test runs it on a real socket
// (node:http on 127.0.0.1) in front of a stub gateway that records what
// reaches it, and proves what a caller cannot make it spend.

/** The relay behind node:http on 127.0.0.1, in front of the stub gateway; `base` is what a browser would call. */
async function relay(options: Omit<GatewayHandlerOptions, 'apiKey'>) {
  const handler = createGatewayHandler({ apiKey: KEY, onError: () => {}, ...options })
  const url = await listen(createServer(nodeListener(handler)))
  return { url, base: `${url}${handler.basePath}` }
}

/** What `createGatewayHandler` throws for `options`. */
function thrownBy(options: unknown): unknown {
  try {
    createGatewayHandler(options as GatewayHandlerOptions)
  } catch (error) {
    return error
  }
  return undefined
}

const BODY = { model: 'gpt-4.1-mini', input: 'Say hi' }

describe('the relay, closed by default', () => {
  it('does not start without authorize', async () => {
    const upstream = await startUpstream()
    const error = thrownBy({ baseUrl: upstream.url, apiKey: KEY })
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toMatch(/authorize: is required: pass authorize\(request\).*or allowUnauthenticated: true/)
    expect(upstream.requests).toEqual([])
  })

  it('answers a caller authorize refuses with a JSON 401, and the gateway sees nothing', async () => {
    const upstream = await startUpstream()
    const seen: Request[] = []
    const { base } = await relay({ baseUrl: upstream.url, authorize: (request) => (seen.push(request), false) })
    const res = await post(base + RESPONSES, BODY, { cookie: 'session=stolen', authorization: `Bearer ${KEY}` })
    expect(res.status).toBe(401)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized')
    expect(seen).toHaveLength(1)
    expect(upstream.requests).toEqual([])
  })

  it('answers a per-session rate limit of authorize (429, Retry-After) as it is, and the gateway sees only the calls within it', async () => {
    const upstream = await startUpstream()
    let now = 0
    const windows = new Map<string, { start: number; calls: number }>()
    const authorize = (request: Request) => {
      const session = /(?:^|; )session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1]
      if (!session) return false
      let window = windows.get(session)
      if (!window || now - window.start >= 60_000) windows.set(session, (window = { start: now, calls: 0 }))
      if (++window.calls <= 2) return true
      const error = { message: 'Too many calls; try again later.', type: 'rate_limit_error', param: null, code: 'rate_limited' }
      return Response.json({ error }, { status: 429, headers: { 'retry-after': String(Math.ceil((window.start + 60_000 - now) / 1000)) } })
    }
    const { base } = await relay({ baseUrl: upstream.url, authorize })
    const send = (session: string) => post(base + RESPONSES, BODY, { cookie: `session=${session}` })
    expect([(await send('a')).status, (await send('a')).status]).toEqual([200, 200])
    now = 45_000
    const limited = await send('a')
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '15'])
    expect((await send('b')).status).toBe(200)
    now = 60_000
    expect((await send('a')).status).toBe(200)
    expect(upstream.requests).toHaveLength(4)
  })

  it('answers a body that trickles in with a 408 within bodyTimeoutMs, and forwards nothing', async () => {
    const upstream = await startUpstream()
    const { url } = await relay({ baseUrl: upstream.url, authorize: () => true, bodyTimeoutMs: 200 })
    const body = JSON.stringify(BODY)
    const reply = await new Promise<string>((resolve, reject) => {
      let text = ''
      let timer: NodeJS.Timeout | undefined
      const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
        socket.write(`POST /api/rxgate${RESPONSES} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
        // One byte every 50 ms: the whole body would take well over a second.
        let at = 0
        timer = setInterval(() => at < body.length - 1 && socket.write(body[at++]!), 50)
      })
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      socket.on('close', () => (clearInterval(timer), resolve(text)))
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    expect(reply).toContain('"code":"body_timeout"')
    expect(upstream.requests).toEqual([])
  })

  it('does not start with an extra header that would split every call (CR/LF in a value or name)', async () => {
    const upstream = await startUpstream()
    for (const headers of [{ 'x-team': 'web\r\nx-injected: 1' }, { 'x-team\r\nx-injected': '1' }, { 'x-team': 'web\n' }]) {
      const error = thrownBy({ baseUrl: upstream.url, apiKey: KEY, authorize: () => true, headers })
      expect(isInvalidRequestError(error), JSON.stringify(headers)).toBe(true)
      expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([`headers.${Object.keys(headers)[0]}`])
    }
    expect(upstream.requests).toEqual([])
  })
})
