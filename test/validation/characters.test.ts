import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../../src/index.js'
import { serializeRequest } from '../../src/validation/check.js'
import { characters } from '../../src/validation/fields.js'
import { ResponseRequestSchema } from '../../src/validation/responseRequest.js'
import { TextToVideoRequestSchema } from '../../src/validation/textToVideoRequest.js'

// The interface counts characters, as its gateways do: an emoji (two UTF-16
// units) is one character. A client counting `.length` would refuse input
// the gateway accepts.
const refusal = (schema: Parameters<typeof serializeRequest>[0], body: unknown) => {
  try {
    serializeRequest(schema, body)
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError)
    return (error as InvalidRequestError).issues
  }
}

describe('character limits count code points', () => {
  it('counts a surrogate pair once and a lone surrogate as one', () => {
    expect(characters('a🙂b')).toBe(3)
    expect(characters('🙂'.repeat(10))).toBe(10)
    expect(characters('\ud83d')).toBe(1)
    expect(characters('')).toBe(0)
  })

  it('accepts a prompt of 2,000 emoji (4,000 UTF-16 units) and refuses 2,001, naming the count', () => {
    expect(refusal(TextToVideoRequestSchema, { prompt: '🙂'.repeat(2000) })).toBeUndefined()
    expect(refusal(TextToVideoRequestSchema, { prompt: '🙂'.repeat(2001) })).toEqual([{ path: 'prompt', message: 'must be at most 2000 characters (got 2001)' }])
  })

  it('counts negative_prompt and metadata keys and values the same way', () => {
    expect(refusal(TextToVideoRequestSchema, { prompt: 'p', negative_prompt: '🙂'.repeat(500) })).toBeUndefined()
    expect(refusal(TextToVideoRequestSchema, { prompt: 'p', negative_prompt: '🙂'.repeat(501) })?.[0]?.path).toBe('negative_prompt')
    expect(refusal(ResponseRequestSchema, { model: 'm', metadata: { ['🙂'.repeat(64)]: '🙂'.repeat(512) } })).toBeUndefined()
    expect(refusal(ResponseRequestSchema, { model: 'm', metadata: { ['🙂'.repeat(65)]: 'v' } })?.[0]?.message).toBe('keys must be at most 64 characters (got 65)')
    expect(refusal(ResponseRequestSchema, { model: 'm', metadata: { k: '🙂'.repeat(513) } })?.[0]).toEqual({ path: 'metadata.k', message: 'must be at most 512 characters (got 513)' })
  })
})
