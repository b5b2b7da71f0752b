import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { redactError, scrubText } from '../../src/errors/redact.js'
import { ValidationError } from '../../src/errors/ValidationError.js'
import { KEY } from '../helpers/fixtures.js'
import { expectNoKeyFragment, fragmentsOf } from '../helpers/secrets.js'

describe('scrubText', () => {
  it('masks the whole key, each time it appears', () => {
    expect(scrubText(`bad key ${KEY}; again ${KEY}${KEY}`, KEY)).toBe('bad key [redacted]; again [redacted]')
  })

  it('masks every stretch of 8 or more characters of the key: a half-masked echo, a cut key, a middle piece', () => {
    expect(scrubText(`key ${KEY.slice(0, 12)}…`, KEY)).toBe('key [redacted]…')
    expect(scrubText(`…${KEY.slice(-8)} end`, KEY)).toBe('…[redacted] end')
    expect(scrubText(`(${KEY.slice(5, 14)})`, KEY)).toBe('([redacted])')
  })

  it('leaves 7 characters of the key alone (too short to tell from ordinary text)', () => {
    const seven = KEY.slice(3, 10)
    expect(scrubText(`x ${seven} y`, KEY)).toBe(`x ${seven} y`)
  })

  it('masks nothing for keys shorter than 8 characters (local placeholders)', () => {
    expect(scrubText('the key dev is fine, dev', 'dev')).toBe('the key dev is fine, dev')
  })

  it('masks a key of exactly 8 characters, and a text that is exactly the key', () => {
    expect(scrubText('key 8charkey!', '8charkey')).toBe('key [redacted]!')
    expect(scrubText(KEY.slice(0, 8), KEY)).toBe('[redacted]')
  })

  it('returns text without the key unchanged', () => {
    expect(scrubText('nothing here', KEY)).toBe('nothing here')
  })
})

describe('redactError', () => {
  it('masks the key in the message, stack, own fields, nested payloads and the cause chain', () => {
    const cause = new Error(`inner ${KEY}`, { cause: { detail: `deeper ${KEY}` } })
    const err = new ValidationError('reply', [{ path: 'x', message: `echo ${KEY}` }], { nested: [{ token: `Bearer ${KEY}` }] })
    Object.defineProperty(err, 'cause', { value: cause, configurable: true, writable: true })
    redactError(err, KEY)
    expectNoKeyFragment(err)
    expect(err.payload).toEqual({ nested: [{ token: 'Bearer [redacted]' }] })
    expect(err.issues[0]!.message).toBe('echo [redacted]')
  })

  it('masks a key held in a frozen-but-configurable or read-only field without throwing', () => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 401, body: `{"detail":"key ${KEY}"}` })
    Object.defineProperty(err, 'gatewayMessage', { value: `key ${KEY}`, writable: false, configurable: true, enumerable: true })
    redactError(err, KEY)
    expect(err.gatewayMessage).toBe('key [redacted]')
  })

  it('walks a payload nested 100,000 deep without overflowing the stack', () => {
    let deep: unknown = `leaf ${KEY}`
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const err = new ValidationError('reply', [], deep)
    expect(() => redactError(err, KEY)).not.toThrow()
    let leaf: unknown = err.payload
    while (Array.isArray(leaf)) leaf = leaf[0]
    expect(leaf).toBe('leaf [redacted]')
  })

  it('shortens a message over 2,000 characters after masking, saying how much was cut, in message and stack', () => {
    const err = new Error(`${'m'.repeat(2_500)}`)
    redactError(err, KEY)
    expect(err.message).toBe(`${'m'.repeat(2_000)}… (500 more characters)`)
    expect(err.stack).toContain('… (500 more characters)')
  })

  // A cut before masking would leave the part of the key before the cut.
  it.each([1_990, 1_995, 1_999, 2_000, 2_005])('leaves no 8 characters of a key echoed at position %i, near the 2,000-character cut', (at) => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 400, body: JSON.stringify({ detail: 'x'.repeat(at) + KEY + 'y'.repeat(300) }) })
    redactError(err, KEY)
    expect(err.message.length).toBeLessThan(2_100)
    expectNoKeyFragment(err)
  })

  it('masks before it shortens: a key the 2,000-character cut would split leaves not even the 7 characters before the cut', () => {
    const prefix = 'GET /p answered 400: '
    const err = new HttpError({ method: 'GET', path: '/p', status: 400, body: JSON.stringify({ detail: 'x'.repeat(2_000 - 7 - prefix.length) + KEY + 'y'.repeat(300) }) })
    expect(err.message.indexOf(KEY)).toBe(2_000 - 7)
    redactError(err, KEY)
    expect(err.message).not.toContain(KEY.slice(0, 7))
    expect(err.message).toMatch(/x\[redact… \(\d+ more characters\)$/)
  })

  it.each([490, 495, 500, 505])('leaves no 8 characters of a key echoed at position %i of a gateway message (the old 500-character cut)', (at) => {
    const err = new HttpError({ method: 'GET', path: '/p', status: 400, body: JSON.stringify({ error: { message: 'x'.repeat(at) + KEY } }) })
    redactError(err, KEY)
    expectNoKeyFragment(err)
  })

  it('leaves no 8 characters when the gateway echoes fragments of the key', () => {
    const pieces = fragmentsOf(KEY, 9).join(' | ')
    const err = new ConnectionError('GET', '/p', `reset after ${pieces}`, true, new Error(pieces))
    redactError(err, KEY)
    expectNoKeyFragment(err)
  })

  it('does nothing without a key, or with a key under 8 characters, and still shortens', () => {
    const err = new Error(`k${'z'.repeat(2_100)}`)
    redactError(err, undefined)
    expect(err.message.startsWith('kzzz')).toBe(true)
    expect(err.message).toContain('… (101 more characters)')
    const short = new Error('key dev')
    redactError(short, 'dev')
    expect(short.message).toBe('key dev')
  })

  it('masks with a key of exactly 8 characters', () => {
    const err = new Error('bad key 8charkey')
    redactError(err, '8charkey')
    expect(err.message).toBe('bad key [redacted]')
  })

  it('masks a key in a sealed payload, and leaves a frozen one as it is without throwing', () => {
    const sealed = Object.seal({ token: `Bearer ${KEY}` })
    const frozen = Object.freeze({ token: `Bearer ${KEY}` })
    const err = new ValidationError('reply', [], { sealed, frozen })
    expect(() => redactError(err, KEY)).not.toThrow()
    expect(sealed.token).toBe('Bearer [redacted]')
    expect(frozen.token).toBe(`Bearer ${KEY}`)
  })

  it('walks a payload whose keys are not all readable properties (accessors, a proxy listing keys it lacks) without throwing', () => {
    const accessor = Object.defineProperty({ token: `Bearer ${KEY}` }, 'computed', { enumerable: true, get: () => `Bearer ${KEY}` })
    const phantom = new Proxy({ token: `Bearer ${KEY}` }, { ownKeys: () => ['token', 'ghost'] })
    const err = new ValidationError('reply', [], { accessor, phantom })
    expect(() => redactError(err, KEY)).not.toThrow()
    expect(accessor.token).toBe('Bearer [redacted]')
    expect(phantom.token).toBe('Bearer [redacted]')
  })

  it('leaves a message of exactly 2,000 characters whole', () => {
    const err = new Error('m'.repeat(2_000))
    redactError(err, KEY)
    expect(err.message).toBe('m'.repeat(2_000))
  })

  it('leaves a shortened message like any error message: writable, deletable, not enumerable', () => {
    const err = new Error('m'.repeat(2_100))
    redactError(err, KEY)
    expect(Object.keys(err)).toEqual([])
    err.message = 'changed'
    expect(err.message).toBe('changed')
    expect(delete (err as { message?: string }).message).toBe(true)
    expect(err.message).toBe('')
  })

  it('shortens the message of an error that has no stack', () => {
    const err = new Error('m'.repeat(2_100))
    Object.defineProperty(err, 'stack', { value: undefined, writable: true, configurable: true })
    expect(() => redactError(err, KEY)).not.toThrow()
    expect(err.message).toBe(`${'m'.repeat(2_000)}… (100 more characters)`)
    expect(err.stack).toBeUndefined()
  })

  it('returns the same error, and accepts non-errors', () => {
    const err = new Error('x')
    expect(redactError(err, KEY)).toBe(err)
    expect(redactError(`text ${KEY}`, KEY)).toBe(`text ${KEY}`)
    expect(redactError(null, KEY)).toBeNull()
  })
})
