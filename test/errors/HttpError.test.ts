import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../src/errors/GatewayError.js'
import { HttpError, httpErrorKind, isHttpError } from '../../src/errors/HttpError.js'

const make = (status: number, body = '', retryAfterMs?: number) => new HttpError({ method: 'POST', path: '/vendors/vendor-a/v1/responses', status, body, retryAfterMs })

describe('httpErrorKind', () => {
  it.each([
    [401, 'auth'],
    [403, 'forbidden'],
    [402, 'payment'],
    [404, 'not_found'],
    [408, 'timeout'],
    [429, 'rate_limit'],
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [504, 'server'],
    [599, 'server'],
    [400, 'rejected'],
    [405, 'rejected'],
    [409, 'rejected'],
    [422, 'rejected'],
    [423, 'rejected'],
    [451, 'rejected'],
  ])('%i is %s, on the error too', (status, kind) => {
    expect(httpErrorKind(status)).toBe(kind)
    expect(make(status).kind).toBe(kind)
  })
})

describe('HttpError.permanent', () => {
  it.each([
    [408, '', false],
    [429, '', false],
    [429, '{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}', false],
    [500, '', false],
    [503, '', false],
    [400, '', true],
    [401, '', true],
    [402, '', true],
    [403, '', true],
    [404, '', true],
    [409, '', true],
    [429, '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}', true],
    [429, '{"error":{"message":"x","type":"insufficient_quota","code":null}}', true],
    [429, '{"message":"Daily spend cap reached","code":"spend_cap"}', true],
    [429, '{"detail":"billing hard limit has been reached"}', true],
    [429, '{"detail":"Your credit balance is too low"}', true],
    [429, '{"detail":"Monthly quota exhausted"}', true],
    // A per-minute quota is a rate limit: it passes.
    [429, '{"error":{"code":429,"message":"Quota exceeded for quota metric \'Generate Content API requests per minute\'","status":"RESOURCE_EXHAUSTED"}}', false],
    [429, '{"error":{"message":"Rate limit reached for gpt-4.1 on tokens per min (TPM): Limit 30000","type":"tokens","code":"rate_limit_exceeded"}}', false],
    [429, '{"detail":"Too many requests"}', false],
    // A per-minute limit that points to the billing page to raise it is still a rate limit.
    [429, '{"error":{"message":"Rate limit reached for gpt-4 in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.","type":"requests","code":"rate_limit_exceeded"}}', false],
    [429, '{"detail":"Your account has no credit left; generate a new invoice"}', true],
  ])('%i %s → permanent %s', (status, body, permanent) => {
    expect(make(status, body).permanent).toBe(permanent)
  })

  it('says a quota 429 will not pass by retrying, and offers no retry delay for it', () => {
    const err = make(429, '{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}', 2_000)
    expect(err.message).toMatch(/out of quota or credit; retrying will not help/)
    expect(err.message).not.toMatch(/Retry after/)
    expect(err.retryAfterMs).toBe(2_000)
  })
})

describe('HttpError', () => {
  it('is a GatewayError with the status, kind, code, gateway message, retry delay, method and path', () => {
    const err = make(429, '{"error":{"message":"Slow down","type":"rate_limit_exceeded","code":"rate_limited"}}', 1_500)
    expect(err).toBeInstanceOf(GatewayError)
    expect(err).toMatchObject({ name: 'HttpError', status: 429, kind: 'rate_limit', code: 'rate_limited', gatewayMessage: 'Slow down', retryAfterMs: 1_500, permanent: false, method: 'POST', path: '/vendors/vendor-a/v1/responses' })
    expect(err.message).toBe('POST /vendors/vendor-a/v1/responses answered 429: Slow down. The gateway asks to slow down. Retry after 2 s.')
    expect(isHttpError(err)).toBe(true)
  })

  it.each([
    [401, /Check the apiKey/],
    [403, /may not use this endpoint or model/],
    [402, /balance is too low/],
    [404, /Check the path and the id/],
    [408, /timed out waiting/],
    [500, /try again later/],
    [400, /rejected the request/],
  ])('says what to do for %i', (status, advice) => {
    expect(make(status).message).toMatch(advice)
  })

  it('never doubles a full stop when the gateway’s message ends with one (or with spaces)', () => {
    for (const said of ['Invalid value for temperature.', 'Invalid value for temperature. ', 'Invalid value for temperature...']) {
      const err = make(400, JSON.stringify({ error: { message: said } }))
      expect(err.message).toBe('POST /vendors/vendor-a/v1/responses answered 400: Invalid value for temperature. The gateway rejected the request.')
    }
  })

  it('keeps the gateway’s whole message, however long (the key scrubber shortens messages, after masking)', () => {
    const said = `${'x'.repeat(3_000)}END`
    const err = make(400, JSON.stringify({ detail: said }))
    expect(err.gatewayMessage).toBe(said)
    expect(err.message).toContain('xEND. The gateway rejected the request.')
  })

  it('works without a body, and says nothing of a retry delay without Retry-After', () => {
    const err = make(500)
    expect([err.code, err.gatewayMessage, err.retryAfterMs]).toEqual([undefined, undefined, undefined])
    expect(err.message).toBe('POST /vendors/vendor-a/v1/responses answered 500. The gateway failed; try again later.')
  })

  it('has a plain JSON form with its fields', () => {
    const err = make(404, '{"detail":"Not Found"}')
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: 'HttpError',
      message: err.message,
      status: 404,
      kind: 'not_found',
      gatewayMessage: 'Not Found',
      permanent: true,
      method: 'POST',
      path: '/vendors/vendor-a/v1/responses',
    })
  })
})
