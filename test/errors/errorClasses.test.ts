import { inspect } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { BufferOverflowError } from '../../src/errors/BufferOverflowError.js'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { GatewayError, tagTask } from '../../src/errors/GatewayError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { ResponseRefusedError } from '../../src/errors/ResponseRefusedError.js'
import { ResultExpiredError } from '../../src/errors/ResultExpiredError.js'
import { TaskCreationUnknownError } from '../../src/errors/TaskCreationUnknownError.js'
import { TaskFailedError } from '../../src/errors/TaskFailedError.js'
import { TaskTimeoutError } from '../../src/errors/TaskTimeoutError.js'
import { ToolCallError } from '../../src/errors/ToolCallError.js'
import { ToolRoundsExceededError } from '../../src/errors/ToolRoundsExceededError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { TASK_ID } from '../helpers/fixtures.js'

const IDEM = '0b6ea0f5-idem-4a7e-9a6c-2f0d5d0c9a11'

describe('BufferOverflowError', () => {
  it('counts values by default and suggests drop-oldest', () => {
    const err = new BufferOverflowError(3)
    expect(err).toMatchObject({ name: 'BufferOverflowError', highWaterMark: 3, unit: 'values' })
    expect(err.message).toBe(
      "The consumer fell behind: 3 values were waiting when more arrived, so the source was unsubscribed and its request aborted. Consume faster, raise highWaterMark, or choose overflow: 'drop-oldest'.",
    )
  })

  it('counts characters for a text stream, which has no drop-oldest policy to suggest', () => {
    const err = new BufferOverflowError(5_000, 'characters')
    expect(err).toMatchObject({ highWaterMark: 5_000, unit: 'characters' })
    expect(err.message).toBe(
      'The consumer fell behind: 5000 characters were waiting when more arrived, so the source was unsubscribed and its request aborted. Consume faster or raise highWaterMark.',
    )
  })
})

describe('ToolCallError', () => {
  const call = { name: 'get_weather', callId: 'call_7' }

  it('unknown-tool: names the tool and the call, and says to add a handler; it has no cause', () => {
    const err = new ToolCallError('unknown-tool', call)
    expect(err).toMatchObject({ name: 'ToolCallError', reason: 'unknown-tool', toolName: 'get_weather', callId: 'call_7' })
    expect(err.message).toBe('The model called "get_weather" (call call_7), which has no handler: add one, or do not offer the tool.')
    expect('cause' in err).toBe(false)
    expect(inspect(err)).not.toContain('[cause]')
  })

  it('handler-failed: names the tool and the call, and prints the error the handler threw', () => {
    const cause = new RangeError('offline')
    const err = new ToolCallError('handler-failed', call, cause)
    expect(err).toMatchObject({ reason: 'handler-failed', toolName: 'get_weather', callId: 'call_7', cause })
    expect(err.message).toBe('The handler of "get_weather" failed on call call_7: RangeError: offline')
  })

  it('handler-failed: prints a thrown non-error as text', () => {
    expect(new ToolCallError('handler-failed', call, 'no network').message).toBe('The handler of "get_weather" failed on call call_7: no network')
  })

  it('handler-failed: says so when the thrown value cannot even be printed', () => {
    const unprintable = {
      toString() {
        throw new Error('no')
      },
    }
    const err = new ToolCallError('handler-failed', call, unprintable)
    expect(err.message).toBe('The handler of "get_weather" failed on call call_7: it threw a value that cannot be printed')
    expect(err.cause).toBe(unprintable)
  })
})

describe('ToolRoundsExceededError', () => {
  it('names the pending calls, the rounds and the last response', () => {
    const err = new ToolRoundsExceededError(2, 'resp_9', ['get_weather', 'get_time'])
    expect(err).toMatchObject({ maxRounds: 2, responseId: 'resp_9', pendingCalls: ['get_weather', 'get_time'] })
    expect(err.message).toBe(
      'The model still called tools (get_weather, get_time) after 2 responses, the last resp_9; the loop stopped. Raise maxRounds if the task needs more rounds.',
    )
  })

  it('leaves the last response out when it had no id', () => {
    expect(new ToolRoundsExceededError(1, undefined, ['f']).message).toBe(
      'The model still called tools (f) after 1 responses; the loop stopped. Raise maxRounds if the task needs more rounds.',
    )
  })
})

describe('ResponseRefusedError', () => {
  it('quotes the refusal and names the response', () => {
    const err = new ResponseRefusedError('I cannot help with that.', 'resp_1')
    expect(err).toMatchObject({ refusal: 'I cannot help with that.', responseId: 'resp_1' })
    expect(err.message).toBe('Response resp_1 is a refusal, not an answer (“I cannot help with that.”); change the request, or read refusals with refusal().')
  })

  it('speaks of "the response" when it has no id', () => {
    expect(new ResponseRefusedError('No.').message).toBe('The response is a refusal, not an answer (“No.”); change the request, or read refusals with refusal().')
  })
})

describe('ResultExpiredError', () => {
  const at = new Date('2026-01-02T03:04:05.000Z')

  it('after a 410: says the server answered so, and when the URL expired', () => {
    const err = new ResultExpiredError('/v/out.mp4', at, true)
    expect(err).toMatchObject({ path: '/v/out.mp4', expiresAt: at, requested: true })
    expect(err.message).toBe(
      'GET /v/out.mp4 answered 410: the result URL has expired at 2026-01-02T03:04:05.000Z. Result URLs stay valid for 1 hour after generation; save results as soon as the task completes.',
    )
  })

  it('before any request: says nothing was requested', () => {
    expect(new ResultExpiredError('/v/out.mp4', at, false).message).toBe(
      'The result URL /v/out.mp4 expired at 2026-01-02T03:04:05.000Z, so nothing was requested. Result URLs stay valid for 1 hour after generation; save results as soon as the task completes, or generate them again.',
    )
  })

  it('without an expiry time: leaves the time out', () => {
    expect(new ResultExpiredError('/v/out.mp4', undefined, true).message).toBe(
      'GET /v/out.mp4 answered 410: the result URL has expired. Result URLs stay valid for 1 hour after generation; save results as soon as the task completes.',
    )
  })
})

describe('TaskCreationUnknownError', () => {
  it('drops only the final full stop of the cause’s message', () => {
    const err = new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: IDEM, cause: new Error('socket 10.0.0.1 closed.') })
    expect(err.message).toMatch(/^Creating a task at vendor-b\/t2v-spark may have succeeded \(socket 10\.0\.0\.1 closed\): the task may exist/)
  })

  it('prints a cause that is not an error as text', () => {
    const err = new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: IDEM, cause: 'reset.' })
    expect(err.message).toMatch(/may have succeeded \(reset\.\): /)
  })

  it('has no taskId at all when no reply named the task, so its log form shows none', () => {
    const err = new TaskCreationUnknownError({ endpoint: endpoints.t2vSpark, idempotencyKey: IDEM, taskId: undefined, cause: 'x' })
    expect('taskId' in err).toBe(false)
    expect(Object.keys(err.toJSON())).not.toContain('taskId')
  })
})

describe('TaskFailedError', () => {
  it('has no endpoint at all when none was given', () => {
    const err = new TaskFailedError(TASK_ID, { code: 3001, title: 'T', detail: 'd' })
    expect('endpoint' in err).toBe(false)
    expect(Object.keys(err.toJSON()).sort()).toEqual(['code', 'detail', 'message', 'name', 'taskId', 'title'])
  })
})

describe('TaskTimeoutError', () => {
  it('leaves the last status out when none was read, and has no cause without one', () => {
    const err = new TaskTimeoutError(TASK_ID, endpoints.t2vSpark, 60_400, undefined)
    expect(err.message).toBe(`Task ${TASK_ID} (vendor-b/t2v-spark) did not finish within 60.4 s. It may still finish on the gateway: follow it with task$(client, endpoint, '${TASK_ID}').`)
    expect('cause' in err).toBe(false)
  })

  it('says the deadline exactly: 1.5 s, not 2 s', () => {
    expect(new TaskTimeoutError(TASK_ID, endpoints.t2vSpark, 1_500, undefined).message).toMatch(/did not finish within 1\.5 s\./)
  })
})

describe('ConnectionError', () => {
  it('has no cause property without a cause, and keeps the one given', () => {
    expect('cause' in new ConnectionError('GET', '/p', 'reset', true)).toBe(false)
    const cause = new Error('ECONNRESET')
    expect(new ConnectionError('GET', '/p', 'reset', true, cause).cause).toBe(cause)
  })
})

describe('InvalidRequestError and ValidationError issue lists', () => {
  it('calls the input a request by default', () => {
    expect(new InvalidRequestError([{ path: 'temperature', message: 'must be from 0 to 2 (got 3)' }]).message).toBe(
      'Invalid request: temperature: must be from 0 to 2 (got 3). Nothing was sent.',
    )
  })

  it('lists exactly five issues without a count of more', () => {
    const issues = Array.from({ length: 5 }, (_, i) => ({ path: `f${i}`, message: `rule ${i}` }))
    expect(new InvalidRequestError(issues).message).toBe('Invalid request: f0: rule 0; f1: rule 1; f2: rule 2; f3: rule 3; f4: rule 4. Nothing was sent.')
  })

  it('never doubles the full stop of an issue that ends with one, and leaves an issue without a path bare', () => {
    expect(new ValidationError('reply', [{ path: '', message: 'is not JSON.' }], 'x').message).toBe('Unexpected reply from the gateway: is not JSON.')
    expect(new InvalidRequestError([{ path: 'a', message: 'is wrong.' }]).message).toBe('Invalid request: a: is wrong. Nothing was sent.')
  })
})

describe('GatewayError log form and task tags', () => {
  it('has no cause key without a cause', () => {
    const json = new ConnectionError('GET', '/p', 'reset', true).toJSON()
    expect(json).toEqual({ name: 'ConnectionError', message: 'GET /p: reset', method: 'GET', path: '/p', sent: true })
    expect('cause' in json).toBe(false)
  })

  it('keeps the name as it is, however long (only payloads are shortened)', () => {
    const err = new GatewayError('m')
    err.name = `Custom${'x'.repeat(1_200)}`
    expect(err.toJSON().name).toBe(err.name)
  })

  it('adds the task note to a stack that was already read (logged) before the tag', () => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 503, body: '' })
    expect(err.stack).not.toContain(TASK_ID)
    tagTask(err, TASK_ID, endpoints.t2vSpark)
    expect(err.stack).toContain(`(task ${TASK_ID} at vendor-b/t2v-spark: it may still finish`)
  })

  it('tags an error that has no stack, without giving it one', () => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 503, body: '' })
    Object.defineProperty(err, 'stack', { value: undefined, writable: true, configurable: true })
    expect(tagTask(err, TASK_ID, endpoints.t2vSpark).message).toContain(`(task ${TASK_ID} at vendor-b/t2v-spark`)
    expect(err.stack).toBeUndefined()
  })
})

describe('HttpError', () => {
  const make = (status: number, body: string) => new HttpError({ method: 'POST', path: '/p', status, body })

  it('reads a quota or billing word as "out of quota" only on a 429', () => {
    expect(make(402, '{"detail":"billing hard limit reached"}').message).toBe('POST /p answered 402: billing hard limit reached. The account balance is too low for this call.')
    expect(make(429, '{"detail":"billing hard limit reached"}').message).toBe(
      'POST /p answered 429: billing hard limit reached. The account is out of quota or credit; retrying will not help.',
    )
  })

  it('reads a quota condition from a top-level type, with no code', () => {
    const err = make(429, '{"type":"insufficient_quota","message":"stop"}')
    expect([err.code, err.type, err.permanent]).toEqual([undefined, 'insufficient_quota', true])
  })

  // A second copy of the module, as another build of rxgate side by side loads it: same advice, same rules.
  it('another copy of HttpError gives the same advice for each kind, and the same rate-limit reading', async () => {
    vi.resetModules()
    const copy = await import('../../src/errors/HttpError.js')
    const say = (status: number, body = '') => new copy.HttpError({ method: 'GET', path: '/p', status, body }).message
    expect(say(401)).toBe('GET /p answered 401. Check the apiKey given to the client.')
    expect(say(403)).toBe('GET /p answered 403. The key is valid but may not use this endpoint or model; check its permissions.')
    expect(say(402)).toBe('GET /p answered 402. The account balance is too low for this call.')
    expect(say(404)).toBe('GET /p answered 404. Check the path and the id.')
    expect(say(429)).toBe('GET /p answered 429. The gateway asks to slow down.')
    expect(say(408)).toBe('GET /p answered 408. The gateway timed out waiting for the request.')
    expect(say(502)).toBe('GET /p answered 502. The gateway failed; try again later.')
    expect(say(418)).toBe('GET /p answered 418. The gateway rejected the request.')
    // A quota per unit of time (RPM, TPM, RPS, TPS) is a rate limit; a quota alone is not.
    for (const unit of ['RPM', 'TPM', 'RPS', 'TPS']) {
      expect(new copy.HttpError({ method: 'GET', path: '/p', status: 429, body: `{"detail":"Quota exceeded: 60 ${unit}"}` }).permanent, unit).toBe(false)
    }
    expect(new copy.HttpError({ method: 'GET', path: '/p', status: 429, body: '{"detail":"Quota exceeded: 60 XPM"}' }).permanent).toBe(true)
    expect(copy.isHttpError(new copy.HttpError({ method: 'GET', path: '/p', status: 500, body: '' }))).toBe(true)
    expect(copy.isHttpError(new GatewayError('x'))).toBe(false)
  })
})
