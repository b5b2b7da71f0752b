import { of, type Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { checkAudio$ } from '../../src/audio/checkAudio$.js'
import type { Client } from '../../src/client.js'
import { saveResults } from '../../src/download/saveResults.js'
import { endpoints, taskEndpoint } from '../../src/endpoints.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { ToolCallError } from '../../src/errors/ToolCallError.js'
import { responses$ } from '../../src/responses$.js'
import { runTools$ } from '../../src/runTools$.js'
import { task$, textToVideo$ } from '../../src/tasks$.js'
import { answer$ } from '../../src/toolAnswer$.js'
import { fakeClient } from '../helpers/client.js'
import { collect } from '../helpers/collect.js'

// Bad input from a caller is a typed InvalidRequestError, said before anything is sent: never a TypeError from deep inside.

const TASK_ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'

describe('a public call given something that is not a client', () => {
  it.each([
    ['null', null],
    ['a string', 'https://gateway.test'],
    ['an options object', { baseUrl: 1 }],
  ])('%s: InvalidRequestError at client', async (_, client) => {
    const calls: Observable<unknown>[] = [
      responses$(client as unknown as Client, { model: 'gpt-4.1-mini', input: 'hi' }),
      textToVideo$(client as unknown as Client, { prompt: 'a kite' }),
      task$(client as unknown as Client, endpoints.t2vSpark, TASK_ID),
      runTools$(client as unknown as Client, { model: 'gpt-4.1-mini', input: 'hi' }, {}),
    ]
    for (const call$ of calls) {
      const { error } = await collect(call$)
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect((error as InvalidRequestError).issues[0]).toMatchObject({ path: 'client' })
      expect((error as Error).message).toContain('createClient()')
    }
  })
})

describe('null options are no options', () => {
  it('runTools$ with null options runs with the defaults', async () => {
    const { client, gw } = fakeClient(() => ({ status: 400, body: '{"error":{"message":"no"}}' }))
    const { error } = await collect(runTools$(client, { model: 'gpt-4.1-mini', input: 'hi' }, {}, null as never))
    // The call was sent (and refused by the gateway): no TypeError before it.
    expect(gw.requests.length).toBe(1)
    expect(error).not.toBeInstanceOf(TypeError)
    expect((error as Error).name).toBe('HttpError')
  })

  it('textToVideo$ with checkAudio: null checks the audio as by default', async () => {
    const { client, gw } = fakeClient(() => ({ status: 500 }))
    const { error } = await collect(textToVideo$(client, { prompt: 'a kite', audio_url: 'http://127.0.0.1:9/voice.wav' }, { checkAudio: null as never }))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues[0]?.path).toBe('audio_url')
    expect(gw.requests.length).toBe(0)
  })
})

describe('helpers given the wrong thing', () => {
  it('taskEndpoint(null) names what it needs', () => {
    expect(() => taskEndpoint(null as never)).toThrow(InvalidRequestError)
    expect(() => taskEndpoint(null as never)).toThrow(/vendor/)
  })

  it('saveResults without a folder refuses at once', () => {
    for (const dir of [null, undefined, 42]) expect(() => saveResults(dir as never)).toThrow(InvalidRequestError)
    expect(() => of().pipe(saveResults('out', null as never))).not.toThrow()
  })

  it('checkAudio$(null) refuses instead of passing the audio as unchecked', async () => {
    const { values, error } = await collect(checkAudio$(null as never))
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).issues[0]?.path).toBe('audio_url')
  })
})

describe('a tool output holding a non-finite number', () => {
  it.each([
    ['NaN', { score: Number.NaN }, 'score'],
    ['Infinity in a list', { scores: [1, Number.POSITIVE_INFINITY] }, 'scores.1'],
  ])('%s: ToolCallError whose cause names the field, never sent as null', async (_, output, path) => {
    const call = { name: 'rate', callId: 'call_1', arguments: {}, itemId: 'fc_1' }
    const { values, error } = await collect(answer$(() => output, call, 1))
    expect(values).toEqual([])
    expect(error).toBeInstanceOf(ToolCallError)
    const cause = (error as Error).cause
    expect(cause).toBeInstanceOf(InvalidRequestError)
    expect((cause as InvalidRequestError).issues[0]).toMatchObject({ path })
  })

  it('a finite output is sent as JSON', async () => {
    const call = { name: 'rate', callId: 'call_1', arguments: {}, itemId: 'fc_1' }
    expect((await collect(answer$(() => ({ score: 0.5 }), call, 1))).values).toEqual(['{"score":0.5}'])
  })
})
