import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { parsePayload, serializeRequest } from '../../src/validation/check.js'
import { ResponseSchema } from '../../src/validation/response.js'
import { response } from '../helpers/fixtures.js'

const Body = v.looseObject({ prompt: v.pipe(v.string(), v.maxLength(10)), seed: v.optional(v.pipe(v.number(), v.minValue(0))), list: v.optional(v.array(v.string())) })

function refusal(body: unknown): InvalidRequestError {
  try {
    serializeRequest(Body, body, 'test body')
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    return err as InvalidRequestError
  }
  throw new Error('serializeRequest accepted the body')
}

describe('serializeRequest', () => {
  it('returns the JSON text that will be sent', () => {
    expect(serializeRequest(Body, { prompt: 'ok', seed: 3, skip: undefined })).toBe('{"prompt":"ok","seed":3}')
  })

  it.each([
    ['a BigInt', { prompt: 'ok', seed: 10n }],
    ['a cycle', (() => { const b: Record<string, unknown> = { prompt: 'ok' }; b.self = b; return b })()],
    ['JSON nested 5,000 deep', { prompt: 'ok', deep: JSON.parse(`${'['.repeat(5_000)}${']'.repeat(5_000)}`) }],
  ])('refuses a body that cannot be serialised (%s) with InvalidRequestError, not a TypeError or RangeError', (_, body) => {
    const err = refusal(body)
    expect(err.issues).toHaveLength(1)
    expect(err.issues[0]!.message).toMatch(/^cannot be sent as JSON \(/)
    expect(err.message).toMatch(/^Invalid test body: cannot be sent as JSON .*Nothing was sent\.$/s)
  })

  it('refuses a body nested deeper than 512 levels, whatever the stack allows, and sends one at 512', () => {
    const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)
    expect(refusal({ prompt: 'ok', deep: nested(512) }).issues[0]!.message).toBe('cannot be sent as JSON (nested deeper than 512 levels)')
    expect(serializeRequest(Body, { prompt: 'ok', deep: nested(511) })).toContain('"deep":[[')
    // Brackets inside strings are text, not nesting.
    expect(serializeRequest(Body, { prompt: 'ok', note: '['.repeat(2_000), quoted: ['\\"[['] })).toContain('"note":"[[[')
  })

  it('checks the body as it will be sent: an inherited toJSON cannot smuggle another body past the rules', () => {
    const sneaky = Object.create({ toJSON: () => ({ prompt: 'p'.repeat(5_000), seed: -5 }) }) as Record<string, unknown>
    sneaky.prompt = 'ok'
    expect(refusal(sneaky).issues.map((i) => i.path).sort()).toEqual(['prompt', 'seed'])
  })

  it('checks a field’s toJSON result too (a Date is sent as a string)', () => {
    expect(refusal({ prompt: new Date(0) }).issues.map((i) => i.path)).toEqual(['prompt'])
    expect(serializeRequest(Body, { prompt: 'ok', list: [{ toJSON: () => 'x' }] })).toBe('{"prompt":"ok","list":["x"]}')
  })

  it('checks the holes of a sparse array as the nulls they are sent as', () => {
    expect(refusal({ prompt: 'ok', list: ['a', , 'b'] }).issues.map((i) => i.path)).toEqual(['list.1'])
  })

  it('refuses a list as a body, saying so, not field by field; a list that toJSON makes of an object too', () => {
    for (const body of [[], [{ prompt: 'ok' }], { toJSON: () => [] }]) {
      expect(refusal(body).issues).toEqual([{ path: '', message: 'must be an object, not a list' }])
    }
  })

  it('refuses a body that serialises to nothing (undefined, a function)', () => {
    refusal(undefined)
    refusal(() => ({ prompt: 'ok' }))
  })
})

describe('parsePayload', () => {
  it('returns a valid payload itself (no copy), unknown fields kept', () => {
    const payload = response({ extra: { kept: true } })
    expect(parsePayload(ResponseSchema, payload, 'response')).toBe(payload)
  })

  it('ends a payload of the wrong shape in ValidationError naming each broken rule, with the payload', () => {
    const payload = response({ id: undefined, status: 'exploded' })
    try {
      parsePayload(ResponseSchema, payload, 'response')
      expect.fail('accepted')
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError)
      expect((err as ValidationError).issues.map((i) => i.path).sort()).toEqual(['id', 'status'])
      expect((err as ValidationError).payload).toBe(payload)
      expect((err as Error).message).toMatch(/^Unexpected response from the gateway: /)
    }
  })

  it('ends a payload nested deeper than a recursive schema can walk in ValidationError (nested too deeply), never a RangeError', () => {
    type Tree = Tree[]
    const TreeSchema: v.GenericSchema<Tree> = v.array(v.lazy(() => TreeSchema))
    let deep: Tree = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    let error: unknown
    try {
      parsePayload(TreeSchema, deep, 'tree')
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ issues: [{ path: '', message: 'is nested too deeply to read' }], payload: deep })
  })

  it('ends JSON nested 5,000 deep in ValidationError, never a RangeError', () => {
    const deep = JSON.parse(`${'['.repeat(5_000)}${']'.repeat(5_000)}`)
    for (const payload of [deep, { ...response(), output: deep }, { ...response(), id: deep }]) {
      let error: unknown
      try {
        parsePayload(ResponseSchema, payload, 'response')
      } catch (err) {
        error = err
      }
      expect(error).toBeInstanceOf(ValidationError)
    }
  })
})

describe('what serializeRequest reports', () => {
  it('names the body itself with an empty path, and calls it a request unless told otherwise', () => {
    let error: unknown
    try {
      serializeRequest(Body, null)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues).toEqual([{ path: '', message: expect.any(String) }])
    expect((error as Error).message).toMatch(/^Invalid request: /)
  })

  it('gives the serialiser’s reason for a body it cannot write', () => {
    expect(refusal({ prompt: 'ok', seed: 10n }).issues).toEqual([{ path: '', message: expect.stringMatching(/^cannot be sent as JSON \(.*BigInt.*\)$/) }])
  })

  it('ends a rule that throws in InvalidRequestError giving the reason, not the bare error', () => {
    const Throwing = v.pipe(v.string(), v.check(() => {
      throw new Error('rule broke')
    }))
    let error: unknown
    try {
      serializeRequest(Throwing, 'x', 'test body')
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues).toEqual([{ path: '', message: 'cannot be sent as JSON (rule broke)' }])
  })
})

describe('the nesting bound counts depth, not brackets', () => {
  it.each([
    ['600 sibling lists', { prompt: 'ok', list: undefined, many: Array.from({ length: 600 }, () => []) }],
    ['600 sibling objects', { prompt: 'ok', many: Array.from({ length: 600 }, () => ({})) }],
    ['brackets after an escaped quote inside a string', { prompt: 'ok', note: `say \\"${'['.repeat(1_100)}` }],
    ['brackets after an escaped backslash and quote', { prompt: 'ok', note: `\\\\"${'{'.repeat(1_100)}` }],
  ])('sends %s', (_, body) => {
    expect(JSON.parse(serializeRequest(Body, body))).toEqual(JSON.parse(JSON.stringify(body)))
  })
})
