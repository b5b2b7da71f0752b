import { describe, expect, it } from 'vitest'
import { createGatewayHandler } from '../../src/server/index.js'
import { captureReports, turn } from '../helpers/reported.js'

const KEY = 'sk-server-0123456789abcdef'
const { reported, rejections } = captureReports()

/** A handler whose `authorize` fails (an internal error, reported to `onError`), and one request to it. */
async function failingCall(onError: (error: unknown) => unknown) {
  const handler = createGatewayHandler({
    baseUrl: 'https://gateway.test',
    apiKey: KEY,
    authorize: () => {
      throw new Error('session store down')
    },
    onError,
  })
  const res = await handler(new Request('https://app.test/api/rxgate/vendors/vendor-a/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m"}' }))
  await turn()
  await turn()
  return res
}

describe("the relay's onError hook, when it fails itself", () => {
  it('one that throws: the caller still gets the JSON 500, and the throw is reported as an unhandled error', async () => {
    const res = await failingCall(() => {
      throw new Error('log sink down')
    })
    expect(res.status).toBe(500)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('internal_error')
    expect(reported).toEqual([new Error('log sink down')])
  })

  it('one whose promise rejects: the 500 all the same, the rejection reported, never unhandled', async () => {
    const res = await failingCall(async () => Promise.reject(new Error('log sink down')))
    expect(res.status).toBe(500)
    expect(reported).toEqual([new Error('log sink down')])
    expect(rejections).toEqual([])
  })
})
