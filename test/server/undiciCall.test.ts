import { gzipSync } from 'node:zlib'
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { errorOf, fakeFetch, json, KEY, post, RESPONSES, startProxy, startUpstream } from './helpers.js'

const STREAM_BODY = { model: 'm', input: 'hi', stream: true }

describe('nodeListener without a fetch option: the gateway through undici’s dispatcher', () => {
  it('asks for the reply uncompressed, and refuses a compressed one without passing a byte of it on', async () => {
    const upstream = await startUpstream((seen, res) => {
      const body = gzipSync(`data: {"message":"you sent ${KEY}"}\n\n`)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip', 'content-length': body.byteLength })
      res.end(body)
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    const res = await post(base + RESPONSES, STREAM_BODY, { accept: 'text/event-stream' })
    expect(upstream.requests[0]!.headers['accept-encoding']).toBe('identity')
    expect(res.status).toBe(502)
    expect(await errorOf(res)).toEqual({
      message: "The gateway's reply is compressed although none was asked for; this server passes on only what it can mask.",
      type: 'server_error',
      param: null,
      code: 'gateway_reply_encoded',
    })
  })

  it('goes through undici’s global dispatcher when the app set one, as fetch would', async () => {
    const upstream = await startUpstream((_, res) => json(res, 200, { ok: true }))
    const seen: string[] = []
    class Watching extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        seen.push(`${options.method} ${options.path}`)
        return super.dispatch(options, handler)
      }
    }
    const before = getGlobalDispatcher()
    const watching = new Watching()
    setGlobalDispatcher(watching)
    onTestFinished(async () => {
      setGlobalDispatcher(before)
      await watching.close()
    })
    const { base } = await startProxy({ baseUrl: upstream.url })
    expect((await post(base + RESPONSES, { model: 'm' })).status).toBe(200)
    expect(seen).toContain(`POST ${RESPONSES}`)
  })

  it('leaves the gateway to a fetch option when one is given', async () => {
    const gateway = fakeFetch(() => new Response('data: 1\n\n', { headers: { 'content-type': 'text/event-stream' } }))
    const { base } = await startProxy({ baseUrl: 'https://gateway.example', fetch: gateway.fetch })
    const res = await post(base + RESPONSES, STREAM_BODY, { accept: 'text/event-stream' })
    expect(await res.text()).toBe('data: 1\n\n')
    expect(gateway.calls.map((c) => c.url)).toEqual([`https://gateway.example${RESPONSES}`])
  })
})
