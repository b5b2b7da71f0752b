import { describe, expect, it } from 'vitest'
import { errorReply, jsonReply } from '../../src/server/reply.js'

describe('errorReply', () => {
  it('answers in the gateway’s error shape, with the error type the status means', async () => {
    // 5xx: the server's fault; 401 and 403: who may call; every other 4xx: the request.
    const types: [number, string][] = [
      [500, 'server_error'],
      [502, 'server_error'],
      [503, 'server_error'],
      [499, 'invalid_request_error'],
      [400, 'invalid_request_error'],
      [401, 'authentication_error'],
      [403, 'permission_error'],
      [404, 'invalid_request_error'],
      [413, 'invalid_request_error'],
    ]
    for (const [status, type] of types) {
      const res = errorReply(status, 'some_code', 'What went wrong.')
      expect(res.status).toBe(status)
      expect(await res.json(), String(status)).toEqual({ error: { message: 'What went wrong.', type, param: null, code: 'some_code' } })
    }
  })

  it('is JSON that no cache keeps, with the extra headers given', () => {
    const res = errorReply(405, 'method_not_allowed', 'Use POST.', { allow: 'POST' })
    expect(Object.fromEntries(res.headers)).toEqual({ 'content-type': 'application/json', 'cache-control': 'no-store', allow: 'POST' })
    expect(jsonReply(200, '{}').headers.get('cache-control')).toBe('no-store')
  })
})
