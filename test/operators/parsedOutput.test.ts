import { of } from 'rxjs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { parsedOutput } from '../../src/operators/parsedOutput.js'
import type { Response } from '../../src/validation/response.js'
import { collect } from '../helpers/collect.js'
import { response } from '../helpers/fixtures.js'

const Weather = v.object({ city: v.string(), celsius: v.number() })
const answer = (text: string) => of(response({ output_text: text }) as unknown as Response)

describe('parsedOutput', () => {
  it('emits the answer parsed and validated by the schema', async () => {
    expect(await collect(answer('{"city":"Paris","celsius":21}').pipe(parsedOutput(Weather)))).toEqual({ values: [{ city: 'Paris', celsius: 21 }], error: undefined, completed: true })
  })

  it('ends an answer that is not JSON in ValidationError saying why, with the raw text', async () => {
    const { error } = await collect(answer('It is 21 °C in Paris').pipe(parsedOutput(Weather)))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ payload: 'It is 21 °C in Paris', issues: [{ path: '' }] })
    expect((error as Error).message).toMatch(/^Unexpected structured output from the gateway: is not JSON \(.+\)\.$/)
  })

  it('ends an answer the schema refuses in ValidationError naming the field, with the raw text', async () => {
    const { error } = await collect(answer('{"city":"Paris","celsius":"warm"}').pipe(parsedOutput(Weather)))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ payload: '{"city":"Paris","celsius":"warm"}', issues: [{ path: 'celsius' }] })
    expect((error as Error).message).toMatch(/^Unexpected structured output from the gateway: celsius/)
  })
})
