import { describe, expect, it } from 'vitest'
import { parseErrorBody } from '../../src/errors/parseErrorBody.js'

describe('parseErrorBody', () => {
  it.each([
    ['detail (string)', { detail: 'Invalid API key' }, { message: 'Invalid API key' }],
    ['error (string)', { error: 'insufficient balance' }, { message: 'insufficient balance' }],
    ['message (string) and a code', { message: 'Too many requests', code: 'rate_limited' }, { message: 'Too many requests', code: 'rate_limited' }],
    [
      'the OpenAI error object',
      { error: { message: 'Invalid value for temperature', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } },
      { message: 'Invalid value for temperature', code: 'invalid_value', type: 'invalid_request_error' },
    ],
    ['the OpenAI error object with a null code: the type stands in', { error: { message: 'Bad', type: 'invalid_request_error', param: null, code: null } }, { message: 'Bad', code: 'invalid_request_error', type: 'invalid_request_error' }],
    ['task_info.error.detail', { task_info: { id: 'x', error: { code: 3001, title: 'Task Execution Error', detail: 'prompt rejected' } } }, { message: 'prompt rejected', code: 3001 }],
    ['task_info.error.title only', { task_info: { error: { code: 400, title: 'Invalid Request' } } }, { message: 'Invalid Request', code: 400 }],
    ['a numeric code at the top', { message: 'Busy', code: 4008 }, { message: 'Busy', code: 4008 }],
    ['a top-level type', { message: 'm', type: 'overloaded' }, { message: 'm', type: 'overloaded' }],
  ])('reads %s', (_, body, expected) => {
    expect(parseErrorBody(JSON.stringify(body))).toEqual(expected)
  })

  it('reads the shapes in the order clients use: detail, error, message, error.message, task_info', () => {
    expect(parseErrorBody(JSON.stringify({ message: 'm', detail: 'd', error: 'e' })).message).toBe('d')
    expect(parseErrorBody(JSON.stringify({ message: 'm', error: 'e' })).message).toBe('e')
    expect(parseErrorBody(JSON.stringify({ message: 'm', error: { message: 'em' } })).message).toBe('m')
    expect(parseErrorBody(JSON.stringify({ error: { message: 'em' }, task_info: { error: { detail: 'td' } } })).message).toBe('em')
  })

  it('reads a validation detail list (FastAPI) as its JSON text', () => {
    const detail = [{ loc: ['body', 'model'], msg: 'field required', type: 'value_error.missing' }]
    expect(parseErrorBody(JSON.stringify({ detail })).message).toBe(JSON.stringify(detail))
  })

  it('gives no message, without throwing, for a detail list nested too deeply to print', () => {
    const deep = `{"detail":[${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}]}`
    expect(parseErrorBody(deep)).toEqual({})
  })

  it('keeps a non-JSON body as the message, whole and trimmed', () => {
    expect(parseErrorBody(' <html><body>502 Bad Gateway</body></html>\n')).toEqual({ message: '<html><body>502 Bad Gateway</body></html>' })
    expect(parseErrorBody('x'.repeat(5_000)).message).toBe('x'.repeat(5_000))
    expect(parseErrorBody('{"error":{"message":"half')).toEqual({ message: '{"error":{"message":"half' })
  })

  it.each([[''], ['   \n'], ['null'], ['42'], ['[]'], ['{}'], ['{"error":{}}'], ['{"detail":"  "}'], ['{"whatever":[1,2,3]}']])('gives no message for %j', (body) => {
    expect(parseErrorBody(body).message).toBeUndefined()
  })

  it('gives no message for an empty detail list', () => {
    expect(parseErrorBody('{"detail":[],"message":"m"}')).toStrictEqual({ message: 'm' })
    expect(parseErrorBody('{"detail":[]}')).toStrictEqual({})
  })

  it('ignores a type or code that is neither text nor a number', () => {
    expect(parseErrorBody('{"message":"m","type":5,"code":{"n":1}}')).toStrictEqual({ message: 'm' })
    expect(parseErrorBody('{"error":{"message":"m","code":true,"type":null}}')).toStrictEqual({ message: 'm' })
  })

  it('has only the fields the body gave: no key for a missing code, type or message', () => {
    expect(parseErrorBody('{"code":7}')).toStrictEqual({ code: 7 })
    expect(parseErrorBody('{"type":"overloaded"}')).toStrictEqual({ type: 'overloaded' })
    expect(parseErrorBody('{"detail":"d"}')).toStrictEqual({ message: 'd' })
  })

  it('reads a JSON string body as the message', () => {
    expect(parseErrorBody('"quota exceeded"')).toEqual({ message: 'quota exceeded' })
  })
})
