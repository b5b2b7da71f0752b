import { describe, expect, it } from 'vitest'
import { openPart } from '../../src/download/openPart.js'
import { isConnectionError } from '../../src/errors/ConnectionError.js'
import { isHttpError } from '../../src/errors/HttpError.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isResultExpiredError } from '../../src/errors/ResultExpiredError.js'
import { AbortSwitch } from '../../src/transport/abort.js'
import { fakeGateway, networkError, type Answer } from '../helpers/fakeTransport.js'

const URL_ = 'https://cdn.example/files/clip.mp4?sig=secret-signature'
const PATH = '/files/clip.mp4'

async function open(answer: Answer, from = 0, validator?: string) {
  const gw = fakeGateway(answer)
  const part = await openPart(gw.transport, URL_, PATH, from, validator, new AbortSwitch())
  return { part, gw }
}

async function failure(answer: Answer, from = 0): Promise<unknown> {
  return open(answer, from).then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )
}

describe('openPart: the request', () => {
  it('asks for the whole file with no header but Accept-Encoding: identity', async () => {
    const { gw } = await open(() => ({ status: 200, body: 'x' }), 0, '"v1"')
    expect(gw.request(1)).toMatchObject({ method: 'GET', url: URL_ })
    expect(gw.request(1).headers).toEqual({ 'accept-encoding': 'identity' })
  })

  it('asks for the rest with Range, and If-Range when it has a validator', async () => {
    const { gw } = await open(() => ({ status: 200, body: 'x' }), 1400, '"v1"')
    expect(gw.request(1).headers).toEqual({ 'accept-encoding': 'identity', range: 'bytes=1400-', 'if-range': '"v1"' })
    const { gw: bare } = await open(() => ({ status: 200, body: 'x' }), 1400)
    expect(bare.request(1).headers).toEqual({ 'accept-encoding': 'identity', range: 'bytes=1400-' })
  })
})

describe('openPart: a 200 or a readable 206', () => {
  it('a 200 starts at 0, sized by Content-Length, with what the server said of ranges and type', async () => {
    const { part } = await open(() => ({ status: 200, headers: { 'content-length': '2899', 'accept-ranges': 'bytes', 'content-type': 'video/mp4' }, body: 'x' }))
    expect(part).toMatchObject({ start: 0, total: 2899, ranges: true, type: 'video/mp4', validator: undefined })
  })

  it('a 200 without Content-Length or Accept-Ranges: size unknown, no ranges', async () => {
    const { part } = await open(() => ({ status: 200, headers: { 'accept-ranges': 'none' }, body: 'x' }))
    expect(part).toMatchObject({ start: 0, total: undefined, ranges: false, type: undefined })
  })

  it('a 206 starts where its Content-Range says and serves ranges', async () => {
    const { part } = await open(() => ({ status: 206, headers: { 'content-range': 'bytes 1400-2898/2899' }, body: 'x' }), 1400)
    expect(part).toMatchObject({ start: 1400, total: 2899, ranges: true })
    const { part: unsized } = await open(() => ({ status: 206, headers: { 'content-range': 'bytes 1400-2898/*' }, body: 'x' }), 1400)
    expect(unsized).toMatchObject({ start: 1400, total: undefined, ranges: true })
  })

  // The validator sent back as If-Range: a strong ETag first, else Last-Modified; a weak ETag never.
  it.each([
    [{ etag: '"v1"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }, '"v1"'],
    [{ etag: '"v1"' }, '"v1"'],
    [{ 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }, 'Mon, 01 Jan 2024 00:00:00 GMT'],
    [{ etag: 'W/"v1"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }, 'Mon, 01 Jan 2024 00:00:00 GMT'],
    [{ etag: 'W/"v1"' }, undefined],
    [{}, undefined],
  ])('validator of %j is %j', async (headers, validator) => {
    const { part } = await open(() => ({ status: 200, headers, body: 'x' }))
    expect(part!.validator).toBe(validator)
  })
})

describe('openPart: the size and the version a reply announces', () => {
  // Only digits, with spaces around them at most, are a length: anything else leaves the size unknown.
  it.each([
    ['2899', 2899],
    [' 2899 ', 2899],
    ['2899abc', undefined],
    ['abc2899', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    ['', undefined],
  ])('a Content-Length of %j: size %j', async (length, size) => {
    const { part } = await open(() => ({ status: 200, headers: { 'content-length': length }, body: 'x' }))
    expect(part).toMatchObject({ start: 0, end: size, total: size })
  })

  // The version a resumed part must carry, and the one recorded beside a partial file: ETag and Last-Modified as sent.
  it.each([
    [{ etag: '"v1"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }, '"v1"\nMon, 01 Jan 2024 00:00:00 GMT'],
    [{ etag: 'W/"v1"' }, 'W/"v1"\n'],
    [{ 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }, '\nMon, 01 Jan 2024 00:00:00 GMT'],
    [{}, '\n'],
  ])('the version of %j is %j', async (headers, version) => {
    const { part } = await open(() => ({ status: 200, headers, body: 'x' }))
    expect(part!.version).toBe(version)
  })
})

describe('openPart: a compressed reply (fetch decodes it; its lengths count compressed bytes)', () => {
  const sized = { 'content-length': '1200', 'accept-ranges': 'bytes', etag: '"v1"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }

  it.each(['gzip', 'br', 'deflate', 'GZIP', 'gzip, identity'])('a 200 with Content-Encoding %s: length unknown, never resumed', async (encoding) => {
    const { part } = await open(() => ({ status: 200, headers: { ...sized, 'content-encoding': encoding }, body: 'x' }))
    expect(part).toMatchObject({ start: 0, end: undefined, total: undefined, ranges: false, validator: undefined })
  })

  it.each(['identity', ' Identity ', ''])('a 200 with Content-Encoding %j is as sent: sized and resumable', async (encoding) => {
    const { part } = await open(() => ({ status: 200, headers: { ...sized, 'content-encoding': encoding }, body: 'x' }))
    expect(part).toMatchObject({ start: 0, end: 1200, total: 1200, ranges: true, validator: '"v1"' })
  })

  it('a compressed 206 is not trusted: it resolves undefined, to start over', async () => {
    const { part } = await open(() => ({ status: 206, headers: { 'content-range': 'bytes 1400-2898/2899', 'content-encoding': 'gzip' }, body: 'x' }), 1400)
    expect(part).toBeUndefined()
  })
})

describe('openPart: answers to start over from', () => {
  it('a 416 (nothing at that offset) resolves undefined', async () => {
    const { part } = await open(() => ({ status: 416, headers: { 'content-range': 'bytes */2899' }, body: '' }), 2899)
    expect(part).toBeUndefined()
  })

  it('a 206 whose Content-Range cannot be read resolves undefined', async () => {
    for (const range of [undefined, 'bytes */2899', 'items 0-9/10']) {
      const { part } = await open(() => ({ status: 206, headers: range ? { 'content-range': range } : ({} as Record<string, string>), body: 'x' }), 1400)
      expect(part).toBeUndefined()
    }
  })
})

describe('openPart: failures', () => {
  it('a 410 is ResultExpiredError, as the server said it', async () => {
    const error = await failure(() => ({ status: 410, body: 'gone' }))
    expect(isResultExpiredError(error) && error.requested).toBe(true)
    expect(error).toMatchObject({ path: PATH })
  })

  it('another status is HttpError with the path only, its body and Retry-After', async () => {
    const error = await failure(() => ({ status: 503, headers: { 'retry-after': '2' }, body: '{"error":{"message":"busy"}}' }))
    expect(isHttpError(error)).toBe(true)
    expect(error).toMatchObject({ method: 'GET', path: PATH, status: 503, retryAfterMs: 2000, gatewayMessage: 'busy' })
    expect((error as Error).message).toBe('GET /files/clip.mp4 answered 503: busy. The gateway failed; try again later. Retry after 2 s.')
  })

  it('only a 206 is read for its Content-Range: a 500 that sends one is still an HttpError', async () => {
    const error = await failure(() => ({ status: 500, headers: { 'content-range': 'bytes 0-9/10' }, body: '' }))
    expect(isHttpError(error) && error.status).toBe(500)
  })

  it('an error body that breaks off is left out of the HttpError', async () => {
    const error = await failure(() => ({
      status: 404,
      body: (function* () {
        yield 'Not Fo'
        throw networkError('ECONNRESET')
      })(),
    }))
    expect((error as Error).message).toBe('GET /files/clip.mp4 answered 404. Check the path and the id.')
  })

  it('a request that never reached the server is a ConnectionError that says so', async () => {
    const error = await failure(() => networkError('ECONNREFUSED'))
    expect(isConnectionError(error)).toBe(true)
    expect(error).toMatchObject({ sent: false, path: PATH })
    expect((error as Error).message).toBe('GET /files/clip.mp4: could not reach the gateway (ECONNREFUSED); check baseUrl and the network')
  })
})

describe('openPart: a storage saying the signature expired', () => {
  it.each([
    ['S3', 403, '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026-01-01T00:00:00Z</Expires></Error>'],
    ['OSS', 403, '<Error><Code>AccessDenied</Code><Message>Request has expired.</Message><RequestId>5C3D</RequestId></Error>'],
    ['GCS (code)', 400, '<Error><Code>ExpiredToken</Code><Message>Invalid argument.</Message></Error>'],
    ['GCS (details)', 400, '<Error><Code>ExpiredToken</Code><Details>The provided token has expired. Request signature expired at: 2026-01-01T00:00:00+00:00</Details></Error>'],
    ['GCS (403)', 403, 'Request signature expired at: 2026-01-01T00:00:00+00:00'],
    ['Azure (window)', 403, '<Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request.</Message><AuthenticationErrorDetail>Signature not valid in the specified time frame: Start [x] - Expiry [y]</AuthenticationErrorDetail></Error>'],
    ['Azure (start after expiry)', 403, '<Error><Code>AuthenticationFailed</Code><AuthenticationErrorDetail>Signed expiry time [Mon, 01 Jan 2024] has to be after signed start time [Tue, 02 Jan 2024]</AuthenticationErrorDetail></Error>'],
  ])('%s: ResultExpiredError with the status', async (_, status, body) => {
    const error = await failure(() => ({ status, body }))
    expect(isResultExpiredError(error)).toBe(true)
    expect(error).toMatchObject({ requested: true, status, path: PATH })
    expect((error as Error).message).toMatch(new RegExp(`^GET /files/clip\\.mp4 answered ${status}: the storage says the signed result URL has expired`))
  })

  it('a 403 that does not say so stays an HttpError', async () => {
    const error = await failure(() => ({ status: 403, body: '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>' }))
    expect(isHttpError(error) && error.status).toBe(403)
  })

  it('the body is read only so far: words past the first 4096 bytes are not read', async () => {
    const error = await failure(() => ({ status: 403, body: `${' '.repeat(5000)}Request has expired` }))
    expect(isHttpError(error)).toBe(true)
  })
})

describe('openPart: signatures stay out of errors', () => {
  it.each([
    ['an echoed query', 'NoSuchKey: /files/clip.mp4?Signature=abc123def456&Expires=99'],
    ['X-Amz-Signature alone', '{"error":{"message":"bad X-Amz-Signature=abc123def456 given"}}'],
    ['sig= alone', 'not found (sig=abc123def456)'],
    ['the URL\'s own value without its name', 'no object for abc123def456'],
    ['an S3 SignatureDoesNotMatch echo', '<Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>abc123def456</SignatureProvided><StringToSign>GET\n99\n/files/clip.mp4</StringToSign></Error>'],
  ])('%s is masked in the HttpError', async (_, body) => {
    const gw = fakeGateway(() => ({ status: 404, body }))
    const error = await openPart(gw.transport, 'https://cdn.example/files/clip.mp4?Signature=abc123def456&Expires=99', PATH, 0, undefined, new AbortSwitch()).catch((e: unknown) => e)
    expect(isHttpError(error)).toBe(true)
    const shown = `${(error as Error).message} ${JSON.stringify(error)}`
    expect(shown).not.toContain('abc123def456')
    expect(shown).toContain('[redacted]')
  })

  it('a refusal of the outbound guard passes as it is: InvalidRequestError, not a ConnectionError', async () => {
    const refusal = new InvalidRequestError([{ path: 'url', message: '127.0.0.1 is a loopback address' }], 'download')
    const error = await failure(() => refusal)
    expect(error).toBe(refusal)
  })
})
