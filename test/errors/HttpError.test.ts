import { describe, expect, it } from 'vitest'
import { GatewayError, HttpError, httpErrorKind } from '../../src/index.js'
import { parseErrorBody } from '../../src/errors/parseErrorBody.js'

describe('httpErrorKind', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
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
  ])('%i → %s', (status, kind) => {
    expect(httpErrorKind(status)).toBe(kind)
    expect(new HttpError({ method: 'GET', path: '/p', status, body: '' }).kind).toBe(kind)
  })
})

describe('HttpError', () => {
  it('is a GatewayError with the status, kind, code, gateway message and retry delay', () => {
    const err = new HttpError({
      method: 'POST',
      path: '/vendors/vendor-a/v1/responses',
      status: 429,
      body: '{"error":{"message":"Slow down","type":"rate_limit_exceeded","code":"rate_limited"}}',
      retryAfterMs: 1_500,
    })
    expect(err).toBeInstanceOf(GatewayError)
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({ name: 'HttpError', status: 429, kind: 'rate_limit', code: 'rate_limited', gatewayMessage: 'Slow down', retryAfterMs: 1_500, method: 'POST', path: '/vendors/vendor-a/v1/responses' })
    expect(err.message).toContain('POST /vendors/vendor-a/v1/responses')
    expect(err.message).toContain('429')
    expect(err.message).toContain('Slow down')
    expect(err.message).toMatch(/Retry after 2 s/)
  })

  it('says what to do for each kind', () => {
    expect(new HttpError({ method: 'GET', path: '/p', status: 401, body: '' }).message).toMatch(/apiKey/)
    expect(new HttpError({ method: 'GET', path: '/p', status: 402, body: '' }).message).toMatch(/balance/)
  })

  it('has a plain JSON form with its fields', () => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 404, body: '{"detail":"Not Found"}' })
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name: 'HttpError', status: 404, kind: 'not_found', gatewayMessage: 'Not Found', message: err.message })
  })

  it('works without any body', () => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 500, body: '' })
    expect(err.code).toBeUndefined()
    expect(err.gatewayMessage).toBeUndefined()
    expect(err.retryAfterMs).toBeUndefined()
    expect(err.message).toContain('500')
  })
})

describe('parseErrorBody', () => {
  it.each([
    ['detail (string)', { detail: 'Invalid API key' }, { message: 'Invalid API key' }],
    ['error (string)', { error: 'insufficient balance' }, { message: 'insufficient balance' }],
    ['message (string)', { message: 'Too many requests', code: 'rate_limited' }, { message: 'Too many requests', code: 'rate_limited' }],
    [
      'OpenAI error object',
      { error: { message: 'Invalid value for temperature', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } },
      { message: 'Invalid value for temperature', code: 'invalid_value' },
    ],
    ['OpenAI error object with a null code: the type stands in', { error: { message: 'Bad', type: 'invalid_request_error', param: null, code: null } }, { message: 'Bad', code: 'invalid_request_error' }],
    ['task_info.error.detail', { task_info: { id: 'x', error: { code: 3001, title: 'Task Execution Error', detail: 'prompt rejected' } } }, { message: 'prompt rejected', code: 3001 }],
    ['task_info.error.title only', { task_info: { error: { code: 400, title: 'Invalid Request' } } }, { message: 'Invalid Request', code: 400 }],
    ['numeric code at top level', { message: 'Busy', code: 4008 }, { message: 'Busy', code: 4008 }],
  ])('%s', (_, body, expected) => {
    expect(parseErrorBody(JSON.stringify(body))).toEqual(expected)
  })

  it('reads the shapes in the order clients use: detail, error, message, error.message, task_info', () => {
    expect(parseErrorBody(JSON.stringify({ message: 'm', detail: 'd', error: 'e' })).message).toBe('d')
    expect(parseErrorBody(JSON.stringify({ message: 'm', error: 'e' })).message).toBe('e')
    expect(parseErrorBody(JSON.stringify({ message: 'm', error: { message: 'em' } })).message).toBe('m')
    expect(parseErrorBody(JSON.stringify({ error: { message: 'em' }, task_info: { error: { detail: 'td' } } })).message).toBe('em')
  })

  it('reads a validation detail list as text', () => {
    const body = { detail: [{ loc: ['body', 'model'], msg: 'field required', type: 'value_error.missing' }] }
    expect(parseErrorBody(JSON.stringify(body)).message).toContain('field required')
  })

  it('keeps a non-JSON body as the message, shortened', () => {
    expect(parseErrorBody('<html><body>502 Bad Gateway</body></html>')).toEqual({ message: '<html><body>502 Bad Gateway</body></html>' })
    const long = parseErrorBody('x'.repeat(5_000)).message!
    expect(long.length).toBeLessThanOrEqual(501)
    expect(long.startsWith('xxxx')).toBe(true)
  })

  it.each([[''], ['   \n'], ['null'], ['42'], ['[]'], ['{}'], ['{"error":{}}'], ['{"detail":"  "}']])('gives no message for %j', (body) => {
    expect(parseErrorBody(body).message).toBeUndefined()
  })

  it('reads a JSON string body as the message', () => {
    expect(parseErrorBody('"quota exceeded"')).toEqual({ message: 'quota exceeded' })
  })
})
