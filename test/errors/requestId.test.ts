import { firstValueFrom } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client.js'
import { requestIdOf, type HttpError } from '../../src/errors/HttpError.js'
import type { ResponseEvent } from '../../src/hooks.js'
import { responses$ } from '../../src/responses$.js'
import { startServer } from '../helpers/server.js'

// The gateway's request id is what its support asks for: on the error, in its message, in hooks.

describe('HttpError.requestId', () => {
  it('carries the x-request-id of a failed reply, in the message too, and hooks see it', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req_7f3a9c2e' })
      res.end(JSON.stringify({ error: { message: 'Upstream failed.', type: 'server_error' } }))
    })
    const seen: ResponseEvent[] = []
    const client = createClient({ baseUrl: server.url, apiKey: 'sk-test-requestid-1234567', retry: false, hooks: { onResponse: (e) => seen.push(e) } })
    const error = (await firstValueFrom(responses$(client, { model: 'm', input: 'hi' })).catch((e: unknown) => e)) as HttpError
    expect(error.requestId).toBe('req_7f3a9c2e')
    expect(error.message).toMatch(/^POST \/vendors\/vendor-a\/v1\/responses answered 500 \(request req_7f3a9c2e\): Upstream failed\./)
    expect(JSON.parse(JSON.stringify(error)).requestId).toBe('req_7f3a9c2e')
    expect((seen[0]!.error as HttpError).requestId).toBe('req_7f3a9c2e')
  })

  it('drops a request id that holds the key (a proxy echoing the credential)', async () => {
    const key = 'sk-test-requestid-1234567'
    const server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'application/json', 'x-request-id': `echo-${key}` })
      res.end('{}')
    })
    const client = createClient({ baseUrl: server.url, apiKey: key, retry: false })
    const error = (await firstValueFrom(responses$(client, { model: 'm', input: 'hi' })).catch((e: unknown) => e)) as HttpError
    expect(error.requestId).toBeUndefined()
    expect(JSON.stringify(error)).not.toContain(key.slice(0, 12))
  })

  it('reads the other request-id headers gateways send, and nothing that is not an id', () => {
    const from = (headers: Record<string, string>) => requestIdOf((name) => headers[name])
    expect(from({ 'x-amzn-requestid': 'b1c2-d3' })).toBe('b1c2-d3')
    expect(from({ 'request-id': 'req_1', 'x-acs-request-id': 'ACS-2' })).toBe('req_1')
    expect(from({ 'x-request-id': 'has spaces in it' })).toBeUndefined()
    expect(from({ 'x-request-id': 'x'.repeat(129) })).toBeUndefined()
    expect(from({})).toBeUndefined()
  })
})
