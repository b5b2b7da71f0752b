import { describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { ConnectionError, isConnectionError } from '../../src/errors/ConnectionError.js'
import { asGatewayError, GatewayError, isGatewayError, tagTask } from '../../src/errors/GatewayError.js'
import { HttpError, isHttpError } from '../../src/errors/HttpError.js'
import { InvalidRequestError, isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { isPayloadTooLargeError, PayloadTooLargeError } from '../../src/errors/PayloadTooLargeError.js'
import { isResponseFailedError, ResponseFailedError } from '../../src/errors/ResponseFailedError.js'
import { isTaskCreationUnknownError, TaskCreationUnknownError } from '../../src/errors/TaskCreationUnknownError.js'
import { isTaskFailedError, TaskFailedError } from '../../src/errors/TaskFailedError.js'
import { isTaskTimeoutError, TaskTimeoutError } from '../../src/errors/TaskTimeoutError.js'
import { isTimeoutError, TimeoutError } from '../../src/errors/TimeoutError.js'
import { isValidationError, ValidationError } from '../../src/errors/ValidationError.js'
import { OTHER_TASK_ID, TASK_ID } from '../helpers/fixtures.js'
import { renderings } from '../helpers/secrets.js'

const KEY = '0b6ea0f5-idem-4a7e-9a6c-2f0d5d0c9a11'

/** One of each error, and the guard that must recognise it. */
const ERRORS: [string, () => GatewayError, (v: unknown) => boolean][] = [
  ['HttpError', () => new HttpError({ method: 'GET', path: '/p', status: 500, body: '' }), isHttpError],
  ['ConnectionError', () => new ConnectionError('GET', '/p', 'reset', true), isConnectionError],
  ['TimeoutError', () => new TimeoutError('GET', '/p', 5), isTimeoutError],
  ['ValidationError', () => new ValidationError('reply', [{ path: 'id', message: 'x' }], {}), isValidationError],
  ['InvalidRequestError', () => new InvalidRequestError([{ path: 'a', message: 'b' }]), isInvalidRequestError],
  ['PayloadTooLargeError', () => new PayloadTooLargeError('GET', '/p', 'maxBodyBytes', 10), isPayloadTooLargeError],
  ['ResponseFailedError', () => new ResponseFailedError({ message: 'x' }), isResponseFailedError],
  ['TaskFailedError', () => new TaskFailedError(TASK_ID, { code: 3001, title: 'T', detail: 'd' }), isTaskFailedError],
  ['TaskTimeoutError', () => new TaskTimeoutError(TASK_ID, endpoints.t2vSpark, 60_000, 'processing'), isTaskTimeoutError],
  ['TaskCreationUnknownError', () => new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: KEY, cause: new Error('reset') }), isTaskCreationUnknownError],
]

describe('type guards', () => {
  it.each(ERRORS)('%s is recognised by its own guard and by isGatewayError, and by no other guard', (name, make, guard) => {
    const err = make()
    expect(err.name).toBe(name)
    expect(guard(err)).toBe(true)
    expect(isGatewayError(err)).toBe(true)
    for (const [other, , otherGuard] of ERRORS) if (other !== name) expect(otherGuard(err), other).toBe(false)
  })

  it('recognise errors of another copy of rxgate (same name and brand), where instanceof cannot', async () => {
    // A second copy of the error modules only: reloading the whole library here would run every module's top level inside this test.
    vi.resetModules()
    const copy = { ...(await import('../../src/errors/HttpError.js')), ...(await import('../../src/errors/TaskCreationUnknownError.js')) }
    const theirs = new copy.HttpError({ method: 'GET', path: '/p', status: 503, body: '' })
    expect(theirs).not.toBeInstanceOf(HttpError)
    expect(isHttpError(theirs)).toBe(true)
    expect(isGatewayError(theirs)).toBe(true)
    expect(copy.isTaskCreationUnknownError(new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: KEY, cause: 'x' }))).toBe(true)
  })

  it('refuse look-alikes: an Error named like one without the brand, plain objects, null', () => {
    const named = Object.assign(new Error('x'), { name: 'HttpError', status: 500 })
    for (const value of [named, { name: 'HttpError' }, null, undefined, 'HttpError', 42]) {
      expect(isHttpError(value)).toBe(false)
      expect(isGatewayError(value)).toBe(false)
    }
  })
})

describe('logging an error never throws, whatever it holds', () => {
  const circular: Record<string, unknown> = { a: 1 }
  circular.self = circular
  const throwing = Object.defineProperty({}, 'boom', {
    enumerable: true,
    get() {
      throw new Error('getter')
    },
  })
  const deep = JSON.parse(`${'['.repeat(5_000)}"core"${']'.repeat(5_000)}`)
  const payloads: [string, unknown][] = [
    ['a circular payload', circular],
    ['a BigInt', { n: 10n }],
    ['a throwing getter', throwing],
    ['JSON nested 5,000 deep', deep],
    ['a huge string', 'x'.repeat(1_000_000)],
    ['a function and a symbol', { f: () => 1, s: Symbol('s') }],
    ['an invalid Date', { d: new Date(Number.NaN) }],
  ]

  it.each(payloads)('%s in a ValidationError: message, String, stack, JSON and inspect all work', (_, payload) => {
    const err = new ValidationError('reply', [{ path: '', message: 'bad' }], payload)
    const out = renderings(err)
    expect(out.string).toBe(`ValidationError: ${err.message}`)
    expect(JSON.parse(out.json)).toMatchObject({ name: 'ValidationError', message: err.message })
  })

  it('shortens payloads in the JSON form: 6 levels, 40 entries, 1,000 characters per string', () => {
    const payload = { s: 'y'.repeat(5_000), list: Array.from({ length: 100 }, (_, i) => i), deep: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } } }
    const json = JSON.parse(JSON.stringify(new ValidationError('reply', [], payload))) as { payload: Record<string, unknown> }
    expect(json.payload.s).toBe(`${'y'.repeat(1_000)}… (5000 characters)`)
    expect(json.payload.list).toHaveLength(41)
    expect((json.payload.list as unknown[])[40]).toBe('… 60 more')
    expect(JSON.stringify(json.payload.deep)).toBe('{"a":{"b":{"c":{"d":{"e":"[object]"}}}}}')
  })

  it('puts the cause in the JSON form by name and message', () => {
    const err = new ConnectionError('GET', '/p', 'reset', true, Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name: 'ConnectionError', sent: true, cause: { name: 'Error', message: 'socket hang up' } })
  })
})

describe('asGatewayError', () => {
  it('returns rxgate errors as they are', () => {
    const err = new TimeoutError('GET', '/p', 5)
    expect(asGatewayError(err)).toBe(err)
  })

  it.each([
    ['a TypeError', new TypeError('x is not a function'), 'Unexpected failure: TypeError: x is not a function'],
    ['a RangeError', new RangeError('Maximum call stack size exceeded'), 'Unexpected failure: RangeError: Maximum call stack size exceeded'],
    ['a string', 'oops', 'Unexpected failure: oops'],
    ['an object that cannot be printed', { toString: () => { throw new Error('no') } }, 'Unexpected failure: an unprintable value was thrown'],
  ])('wraps %s in a GatewayError with the original as cause', (_, thrown, message) => {
    const err = asGatewayError(thrown)
    expect(err).toBeInstanceOf(GatewayError)
    expect(err.message).toBe(message)
    expect(err.cause).toBe(thrown)
  })
})

describe('tagTask', () => {
  it('names the task and its endpoint on the error and says how to follow it again', () => {
    const err = tagTask(new HttpError({ method: 'GET', path: '/p', status: 503, body: '' }), TASK_ID, endpoints.t2vSpark)
    expect(err).toMatchObject({ name: 'HttpError', taskId: TASK_ID, endpoint: endpoints.t2vSpark })
    expect(err.message).toContain(`(task ${TASK_ID} at vendor-b/t2v-spark: it may still finish; follow it again with task$(client, endpoint, '${TASK_ID}'))`)
    expect(err.stack).toContain(`task ${TASK_ID}`)
  })

  it('says of a task the gateway answers 404 for that it knows no such task, not that it may still finish', () => {
    const err = tagTask(new HttpError({ method: 'GET', path: '/p', status: 404, body: '' }), TASK_ID, endpoints.t2vSpark)
    expect(err).toMatchObject({ taskId: TASK_ID, endpoint: endpoints.t2vSpark })
    expect(err.message).toContain(`(task ${TASK_ID} at vendor-b/t2v-spark: the gateway knows no such task; check the id and the endpoint)`)
    expect(err.message).not.toContain('may still finish')
  })

  it('wraps a foreign error, and leaves an error that already names a task as it is', () => {
    expect(tagTask(new Error('bug'), TASK_ID, endpoints.t2vSpark)).toMatchObject({ name: 'GatewayError', taskId: TASK_ID })
    const failed = new TaskFailedError(OTHER_TASK_ID, { code: 3001, title: 'T', detail: 'd' })
    const message = failed.message
    expect(tagTask(failed, TASK_ID, endpoints.t2vSpark)).toMatchObject({ taskId: OTHER_TASK_ID, message })
  })
})

describe('each error says what happened and what to do', () => {
  it('ConnectionError: method, path, whether it was sent', () => {
    expect(new ConnectionError('POST', '/p', 'could not reach the gateway (ECONNREFUSED)', false)).toMatchObject({ method: 'POST', path: '/p', sent: false, message: 'POST /p: could not reach the gateway (ECONNREFUSED)' })
  })

  it('TimeoutError: silence names timeoutMs, a deadline names deadlineMs', () => {
    expect(new TimeoutError('GET', '/p', 5_000)).toMatchObject({ reason: 'silence', timeoutMs: 5_000, message: 'GET /p: nothing complete arrived within 5000 ms; the request was aborted. Raise timeoutMs if the gateway is slow.' })
    expect(new TimeoutError('call', '/p', 9_000, 'deadline').message).toBe('call /p: not finished within its deadline of 9000 ms; the request was aborted. Raise deadlineMs to allow longer.')
  })

  it('PayloadTooLargeError: which limit, how large, and how to raise it', () => {
    expect(new PayloadTooLargeError('GET', '/p', 'maxEventBytes', 1_024)).toMatchObject({ limit: 'maxEventBytes', limitBytes: 1_024, message: 'GET /p: a stream event is larger than 1024 bytes; the request was aborted. Raise maxEventBytes in the client options if such replies are expected.' })
    expect(new PayloadTooLargeError('GET', '/p', 'maxBodyBytes', 10).message).toMatch(/the reply body is larger than 10 bytes.*Raise maxBodyBytes/)
  })

  it('TaskCreationUnknownError with a task id: says the task may exist and to follow it, not create again', () => {
    const cause = new ValidationError('reply to /t', [{ path: '', message: 'is not JSON' }], '{"task_info":{"id":"x')
    const err = new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: KEY, taskId: TASK_ID, cause })
    expect(err).toMatchObject({ endpoint: endpoints.t2vSpark, idempotencyKey: KEY, taskId: TASK_ID, cause })
    expect(err.message).toBe(
      `Creating a task at vendor-b/t2v-spark may have succeeded (Unexpected reply to /t from the gateway: is not JSON): the task may exist and be paid for. Task ${TASK_ID} was reported: follow it with task$(client, endpoint, '${TASK_ID}') instead of creating it again.`,
    )
  })

  it('TaskCreationUnknownError without a task id: says to create again with the same key on an idempotent gateway, or check first', () => {
    const err = new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: KEY, cause: new ConnectionError('POST', '/t', 'reset', true) })
    expect(err.taskId).toBeUndefined()
    expect(err.message).toMatch(/may have succeeded \(POST \/t: reset\): the task may exist and be paid for/)
    expect(err.message).toContain(`create again with { idempotencyKey: '${KEY}' } to get the same task; otherwise check the gateway for the task first.`)
  })

  it('TaskTimeoutError: the task, its endpoint, the deadline, the last status, and how to follow it again', () => {
    const err = new TaskTimeoutError(TASK_ID, endpoints.t2vSpark, 900_000, 'processing', 'last failure')
    expect(err).toMatchObject({ taskId: TASK_ID, endpoint: endpoints.t2vSpark, deadlineMs: 900_000, lastStatus: 'processing', cause: 'last failure' })
    expect(err.message).toBe(`Task ${TASK_ID} (vendor-b/t2v-spark) did not finish within 900 s; last status: processing. It may still finish on the gateway: follow it with task$(client, endpoint, '${TASK_ID}').`)
  })

  it('TaskFailedError: the gateway’s code, title and detail', () => {
    const err = new TaskFailedError(TASK_ID, { code: 3001, title: 'Task Execution Error', detail: 'restricted prompt' }, endpoints.t2vSpark)
    expect(err).toMatchObject({ taskId: TASK_ID, endpoint: endpoints.t2vSpark, code: 3001, title: 'Task Execution Error', detail: 'restricted prompt' })
    expect(err.message).toBe(`Task ${TASK_ID} failed [3001 Task Execution Error]: restricted prompt`)
  })

  it('ResponseFailedError: the response, code and message, or that no reason was given', () => {
    expect(new ResponseFailedError({ responseId: 'resp_1', code: 'server_error', message: 'crashed' }).message).toBe('Response resp_1 failed [server_error]: crashed')
    expect(new ResponseFailedError({ code: null, message: null })).toMatchObject({ code: undefined, responseId: undefined, message: 'The response failed: the gateway gave no reason' })
  })

  it('InvalidRequestError and ValidationError: list the first five issues, then how many more', () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: `f${i}`, message: `rule ${i}` }))
    expect(new InvalidRequestError(issues, 'response request').message).toBe('Invalid response request: f0: rule 0; f1: rule 1; f2: rule 2; f3: rule 3; f4: rule 4; and 2 more. Nothing was sent.')
    expect(new ValidationError('response', [{ path: '', message: 'is not JSON' }], 'x').message).toBe('Unexpected response from the gateway: is not JSON.')
  })
})
