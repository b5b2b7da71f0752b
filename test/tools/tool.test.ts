import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { isInvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import type { StandardSchemaV1 } from '../../src/tools/standardSchema.js'
import { tool, type ToolDefinition } from '../../src/tools/tool.js'
import type { ResponseRequest } from '../../src/validation/responseRequest.js'
import { answering, call, calling, toolLoop } from '../helpers/toolLoop.js'

// One declaration gives the model its JSON Schema and the loop its validated, typed handler.

const ask: ResponseRequest = { model: 'm', input: 'Plan a trip', tools: [{ type: 'web_search' }] }

function errorOf(build: () => unknown): Error {
  try {
    build()
  } catch (err) {
    return err as Error
  }
  throw new Error('expected an error')
}

describe('tool()', () => {
  it('offers each definition in the request’s tools, after the request’s own, with its JSON Schema written from valibot', async () => {
    const forecast = tool({ name: 'forecast', description: 'Days of weather', parameters: v.object({ city: v.string(), days: v.pipe(v.number(), v.integer()) }), execute: () => 'x' })
    const { gw, o } = toolLoop([answering('resp_A', 'ok')], [forecast], ask)
    await o.done
    expect((gw.request(1).json as ResponseRequest).tools).toEqual([
      { type: 'web_search' },
      {
        type: 'function',
        name: 'forecast',
        description: 'Days of weather',
        parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false },
        strict: true,
      },
    ])
  })

  it('serves zod: its own JSON Schema, its validation, its messages back to the model', async () => {
    const execute = vi.fn(({ city }: { city: string }) => `Sunny in ${city}`)
    const weather = tool({ name: 'get_weather', parameters: z.object({ city: z.string() }), execute })
    expect(weather.jsonSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false })
    const { gw, o } = toolLoop([calling('resp_A', [call('call_1', { town: 'Paris' })]), calling('resp_B', [call('call_2')]), answering('resp_C', 'ok')], [weather], ask)
    expect((await o.done).completed).toBe(true)
    expect((gw.request(2).json as { input: { output: string }[] }).input[0]!.output).toMatch(/^Error: the arguments of "get_weather" are invalid: city: Invalid input: expected string, received undefined/)
    expect(execute.mock.calls.map(([args]) => args)).toEqual([{ city: 'Paris' }])
  })

  it('serves any Standard Schema, one that validates asynchronously included, with a JSON Schema given', async () => {
    const schema: StandardSchemaV1<unknown, { id: number }> = {
      '~standard': {
        version: 1,
        vendor: 'custom',
        validate: async (value) => (typeof (value as { id?: unknown }).id === 'number' ? { value: value as { id: number } } : { issues: [{ message: 'must be a number', path: ['id'] }] }),
      },
    }
    expect(errorOf(() => tool({ name: 'lookup', parameters: schema, execute: () => 'x' })).message).toMatch(/jsonSchema: is required: custom schemas do not write their JSON Schema/)
    const execute = vi.fn(({ id }: { id: number }) => `item ${id}`)
    const lookup = tool({ name: 'lookup', parameters: schema, jsonSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] }, execute })
    const { gw, o } = toolLoop([calling('resp_A', [call('call_1', { id: 'x' }, 'lookup'), call('call_2', { id: 7 }, 'lookup')]), answering('resp_B', 'ok')], [lookup], ask)
    await o.done
    expect((gw.request(2).json as { input: { output: string }[] }).input.map((i) => i.output)).toEqual(['Error: the arguments of "lookup" are invalid: id: must be a number. Call it again with arguments that match its parameters.', 'item 7'])
  })

  const one = (): number => 1
  it.each<[string, object, RegExp]>([
    ['a bad name', { name: 'get weather', parameters: v.object({}), execute: one }, /name: must be 1 to 64 letters/],
    ['no execute', { name: 'a', parameters: v.object({}) }, /execute: must be a function/],
    ['parameters that are no schema', { name: 'a', parameters: { type: 'object' }, execute: one }, /parameters: must be a valibot schema or another Standard Schema/],
    ['parameters that are not an object', { name: 'a', parameters: v.string(), execute: one }, /parameters: must describe an object/],
    ['an optional property in strict mode', { name: 'a', parameters: v.object({ city: v.optional(v.string()) }), execute: one }, /schema\.city: is optional, which strict mode does not allow/],
    ['a schema JSON Schema cannot hold', { name: 'a', parameters: v.object({ when: v.date() }), execute: one }, /cannot be written as JSON Schema/],
  ])('refuses %s with InvalidRequestError at once', (_, options, message) => {
    const err = errorOf(() => tool(options as Parameters<typeof tool>[0]))
    expect(isInvalidRequestError(err)).toBe(true)
    expect(err.message).toMatch(message)
  })

  it('allows optional properties with strict: false', () => {
    expect(tool({ name: 'a', parameters: v.object({ city: v.optional(v.string()) }), strict: false, execute: () => 1 }).strict).toBe(false)
  })

  it.each([
    ['a name offered twice', [tool({ name: 'a', parameters: v.object({}), execute: () => 1 }), tool({ name: 'a', parameters: v.object({}), execute: () => 2 })], ask, /tools\[1\]: offers "a" a second time/],
    ['a name the request offers too', [tool({ name: 'a', parameters: v.object({}), execute: () => 1 })], { ...ask, tools: [{ type: 'function', name: 'a', parameters: {} }] }, /tools\[0\]: offers "a" a second time/],
    ['a plain object for a definition', [{ name: 'a', execute: () => 1 }], ask, /tools\[0\]: must be made by tool/],
    ['a missing definition', [tool({ name: 'a', parameters: v.object({}), execute: () => 1 }), undefined], ask, /tools\[1\]: must be made by tool/],
  ])('runTools$ refuses %s before anything is sent', async (_, tools, body, message) => {
    const { gw, o } = toolLoop([], tools as ToolDefinition[], body as ResponseRequest)
    const { error } = await o.done
    expect(isInvalidRequestError(error)).toBe(true)
    expect((error as Error).message).toMatch(message)
    expect(gw.requests).toHaveLength(0)
  })
})
