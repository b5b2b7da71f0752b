import { describe, expect, it } from 'vitest'
import { transferRetryDelay } from '../../src/download/transferRetryDelay.js'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { GatewayError } from '../../src/errors/GatewayError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { ResultExpiredError } from '../../src/errors/ResultExpiredError.js'
import { TimeoutError } from '../../src/errors/TimeoutError.js'

const broke = new ConnectionError('GET', '/v.mp4', 'the connection closed in the middle of the reply', true)
const silent = new TimeoutError('GET', '/v.mp4', 5_000)
const http = (status: number, retryAfterMs?: number) => new HttpError({ method: 'GET', path: '/v.mp4', status, body: '', retryAfterMs })
const half = () => 0.5

describe('transferRetryDelay: which failures are tried again, and after how long', () => {
  it.each([
    // [failure, retry, retries, delay]
    ['a break, first retry: at once', broke, 1, 3, 0],
    ['a break, second retry: backoff (half of 500 ms)', broke, 2, 3, 250],
    ['a break, third retry: backoff (half of 1000 ms)', broke, 3, 3, 500],
    ['a break past retries: give up', broke, 4, 3, undefined],
    ['a break with retries 0: give up', broke, 1, 0, undefined],
    ['silence, first retry: at once', silent, 1, 3, 0],
    ['a 503, first retry: at once', http(503), 1, 3, 0],
    ['a 503 with Retry-After, first retry: the wait asked', http(503, 2_000), 1, 3, 2_000],
    ['a 429 with Retry-After, later retry: the wait asked', http(429, 7_000), 3, 3, 7_000],
    ['a Retry-After over 60 s: give up', http(503, 61_000), 1, 3, undefined],
    ['a 404: give up', http(404), 1, 3, undefined],
    ['a 403: give up', http(403), 1, 3, undefined],
    ['an expired URL: give up', new ResultExpiredError('/v.mp4', undefined, true, 410), 1, 3, undefined],
    ['a refused address: give up', new InvalidRequestError([{ path: 'url', message: 'is private' }], 'download'), 1, 3, undefined],
    ['a body longer than announced: give up', new GatewayError('GET /v.mp4: the server sent more than the 10 bytes it announced'), 1, 3, undefined],
    ['silence past retries: give up', silent, 2, 1, undefined],
  ] as const)('%s', (_, failure, retry, retries, delay) => {
    expect(transferRetryDelay(failure, retry, retries, half)).toBe(delay)
  })

  it('the backoff grows with jitter up to its ceiling', () => {
    expect(transferRetryDelay(broke, 2, 10, () => 0.999)).toBe(499)
    expect(transferRetryDelay(broke, 2, 10, () => 0)).toBe(0)
    expect(transferRetryDelay(broke, 10, 10, () => 0.5)).toBe(4_000)
  })
})
