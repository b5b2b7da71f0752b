import util from 'node:util'
import { describe, expect, it } from 'vitest'
import { ConnectionError } from '../../src/errors/ConnectionError.js'
import { HttpError } from '../../src/errors/HttpError.js'
import { redactError, scrubText, WHOLE_KEY } from '../../src/errors/redact.js'
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

/** `text` with every character of the key from `from` on written as a JSON `\uXXXX` escape (upper-case hex when `upper`). */
const escapeAll = (key: string, upper = false) => [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).map((e) => (upper ? e.toUpperCase().replace('\\U', '\\u') : e)).join('')
const escapeOdd = (key: string) => [...key].map((c, i) => (i % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')
/** Every string JSON.parse makes of `json`, and of JSON held in those strings. */
const decodedStrings = (json: string): string[] => {
  const out: string[] = []
  JSON.parse(json, (_key, value: unknown) => {
    if (typeof value === 'string') out.push(value, ...(value.startsWith('{') ? decodedStrings(value) : []))
    return value
  })
  return out
}
/** Whether 8 consecutive characters of `key` appear in what a JSON decoder makes of `json`. */
const leaksWhenParsed = (json: string, key = KEY) => decodedStrings(json).some((text) => fragmentsOf(key).some((f) => text.includes(f)))

/** The reference: every 8-character piece of the key searched for on its own, covered runs merged into one mask. */
function bruteForce(text: string, key: string): string {
  const covered = new Array<boolean>(text.length).fill(false)
  for (let i = 0; i + 8 <= key.length; i++) {
    for (let at = text.indexOf(key.slice(i, i + 8)); at !== -1; at = text.indexOf(key.slice(i, i + 8), at + 1)) covered.fill(true, at, at + 8)
  }
  let out = ''
  for (let i = 0; i < text.length; i++) if (!covered[i]) out += text[i]
    else if (i === 0 || !covered[i - 1]) out += '[redacted]'
  return out
}

describe('scrubText against a brute-force reference', () => {
  // A seeded generator (mulberry32): the same texts every run.
  let seed = 42
  const random = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n | 0
  }
  const keys = [KEY, 'aaaaaaaaaaaa', 'abcabcabcabcabcab', '12345678', 'sk-ABab-ABab-ABab-ABab-x']
  it.each(keys)('masks what the reference masks, for random mixes of pieces of %s', (key) => {
    for (let round = 0; round < 300; round++) {
      let text = ''
      while (text.length < 60) {
        const from = random(key.length)
        text += random(3) === 0 ? 'xyz'.slice(random(3)) : key.slice(from, from + 1 + random(12))
      }
      expect(scrubText(text, key), text).toBe(bruteForce(text, key))
    }
  })
})

describe('scrubText on what a JSON decoder reads', () => {
  const SLASHED = 'sk/live/7f3a9c2e51d84b6a0c'
  const ASTRAL = 'sk-😀live-7f3a9c2e51d84b'
  it.each([
    ['every character as a lower-case \\u escape', `{"model":"${escapeAll(KEY)}"}`, KEY],
    ['every character as an upper-case \\u escape', `{"model":"${escapeAll(KEY, true)}"}`, KEY],
    ['escaped and plain characters mixed', `{"error":{"message":"bad key ${escapeOdd(KEY)}"}}`, KEY],
    ['one escaped character in the middle', `{"m":"${KEY.slice(0, 9)}\\u${KEY.charCodeAt(9).toString(16).padStart(4, '0')}${KEY.slice(10)}"}`, KEY],
    ['an 8-character fragment, escaped', `{"m":"${escapeAll(KEY.slice(4, 12))}"}`, KEY],
    ['a key with slashes written \\/', `{"m":"${SLASHED.replaceAll('/', '\\/')}"}`, SLASHED],
    ['a key outside the Basic Multilingual Plane, as a \\u surrogate pair', `{"m":"${escapeAll(ASTRAL)}"}`, ASTRAL],
    // 7 plain characters on each side: only the decoded view holds 8 in a row.
    ['a key outside the Basic Multilingual Plane, only the low surrogate escaped', `{"m":"abc1234\uD83D\\uDE005678xyz"}`, 'abc1234😀5678xyz'],
    ['JSON held in a JSON string (escaped twice)', JSON.stringify({ data: `{"m":"${escapeAll(KEY)}"}` }), KEY],
    ['an SSE data line', `data: {"type":"error","message":"${escapeOdd(KEY)}"}`.slice(6), KEY],
  ])('masks %s, whole escapes included, leaving valid JSON', (_name, json, key) => {
    expect(leaksWhenParsed(json, key)).toBe(true)
    const clean = scrubText(json, key)
    expect(leaksWhenParsed(clean, key)).toBe(false)
    expect(clean).toContain('[redacted]')
  })

  it('masks the escaped span only, and leaves what surrounds it, escapes included, as it was', () => {
    expect(scrubText(`{"a":"x\\n${escapeOdd(KEY)}\\"y\\u00e9"}`, KEY)).toBe('{"a":"x\\n[redacted]\\"y\\u00e9"}')
    expect(scrubText(`{"a":"${escapeAll(KEY.slice(0, 12))}|${KEY.slice(12)}"}`, KEY)).toBe('{"a":"[redacted]|[redacted]"}')
  })

  it('leaves 7 escaped characters of the key alone', () => {
    const seven = `{"a":"${escapeAll(KEY.slice(3, 10))}"}`
    expect(scrubText(seven, KEY)).toBe(seven)
  })

  it('reads an escaped backslash as one character: \\\\u0061 is a backslash and "u0061", not an escape', () => {
    // Decoded once, `\\u0073k-…` is the text `\u0073k-…`; decoded again (JSON in a string) it is the key: masked either way.
    expect(scrubText(`"\\\\u0073${KEY.slice(1)}"`, KEY)).toBe('"[redacted]"')
    // An escaped backslash before plain text is no escape of the key's characters.
    expect(scrubText('"C:\\\\users\\\\me"', KEY)).toBe('"C:\\\\users\\\\me"')
  })

  it('still masks the raw key next to backslashes that start no valid escape', () => {
    expect(scrubText(`C:\\keys\\${KEY}\\x`, KEY)).toBe('C:\\keys\\[redacted]\\x')
    expect(scrubText(`bad \\u12 ${KEY}`, KEY)).toBe('bad \\u12 [redacted]')
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

  describe('what util.inspect and JSON.stringify show beyond own string fields', () => {
    /** A user's fetch that failed, its `cause` holding `held` (as undici and user code do). */
    const fetchFailure = (held: unknown) => new ConnectionError('POST', '/p', 'fetch failed', false, Object.assign(new TypeError('fetch failed'), { cause: held }))
    const auth = { authorization: `Bearer ${KEY}`, 'x-trace': 'ok' }
    it.each([
      ['a Headers', () => ({ headers: new Headers(auth) })],
      ['a Headers as the cause itself', () => new Headers(auth)],
      ['a Request (headers and URL)', () => ({ request: new Request(`https://gw.example/v1?key=${KEY}`, { method: 'POST', headers: auth, body: '{}' }) })],
      ['a Response', () => ({ response: new Response('{}', { status: 401, headers: { 'x-echo': KEY } }) })],
      ['a URL', () => ({ url: new URL(`https://gw.example/v1?key=${KEY}`) })],
      ['a Map of headers', () => ({ headers: new Map(Object.entries(auth)) })],
      ['a Map keyed by the key, holding a Headers', () => new Map<unknown, unknown>([[KEY, 1], ['h', new Headers(auth)]])],
      ['a Set', () => new Set(['a', `Bearer ${KEY}`, new Headers(auth)])],
      ['URLSearchParams', () => ({ query: new URLSearchParams({ key: KEY, a: 'b' }) })],
      ['a non-enumerable cause chain of errors', () => new Error('outer', { cause: new Error(`inner ${KEY}`, { cause: { headers: new Headers(auth) } }) })],
      ['AggregateError.errors', () => new AggregateError([new Error(`one ${KEY}`), Object.assign(new Error('two'), { headers: new Headers(auth) })], 'all failed')],
      ['a symbol-keyed field', () => ({ [Symbol('auth')]: `Bearer ${KEY}` })],
      ['an array of Headers', () => [new Headers(auth), new Headers(auth)]],
    ])('masks the key held in %s', (_name, make) => {
      const err = fetchFailure(make())
      expect(util.inspect(err, { depth: null }) + JSON.stringify(err)).toContain(KEY.slice(0, 8))
      redactError(err, KEY)
      expectNoKeyFragment(err)
    })

    it('masks what an enumerable getter returns, which JSON.stringify reads', () => {
      const payload = Object.defineProperty({}, 'token', { enumerable: true, configurable: true, get: () => `Bearer ${KEY}` })
      const err = new ValidationError('reply', [], payload)
      expect(JSON.stringify(err)).toContain(KEY)
      redactError(err, KEY)
      expectNoKeyFragment(err)
      expect(JSON.stringify(err.payload)).toBe('{"token":"Bearer [redacted]"}')
    })

    it('swaps a Headers, a Request or a Response for a masked copy and leaves the caller\'s own objects unchanged', () => {
      const headers = new Headers(auth)
      const request = new Request('https://gw.example/v1', { headers: auth })
      const cause = { headers, request, plain: new Headers({ a: 'b' }) }
      redactError(fetchFailure(cause), KEY)
      expect(headers.get('authorization')).toBe(`Bearer ${KEY}`)
      expect(request.headers.get('authorization')).toBe(`Bearer ${KEY}`)
      expect(cause.headers).toBeInstanceOf(Headers)
      expect(cause.headers.get('authorization')).toBe('Bearer [redacted]')
      expect(cause.headers.get('x-trace')).toBe('ok')
      expect(cause.request).toMatchObject({ method: 'GET', url: 'https://gw.example/v1' })
      expect((cause.request as unknown as { headers: Headers }).headers.get('authorization')).toBe('Bearer [redacted]')
      // Nothing to mask: the object stays the same one.
      expect(cause.plain.get('a')).toBe('b')
    })

    it('never reads a Request or Response body', async () => {
      const response = new Response(`body ${KEY}`, { headers: { 'x-echo': KEY } })
      const cause = { response }
      redactError(fetchFailure(cause), KEY)
      expect(response.bodyUsed).toBe(false)
      expect(await response.text()).toBe(`body ${KEY}`)
    })
  })

  it('returns the same error, and accepts non-errors', () => {
    const err = new Error('x')
    expect(redactError(err, KEY)).toBe(err)
    expect(redactError(`text ${KEY}`, KEY)).toBe(`text ${KEY}`)
    expect(redactError(null, KEY)).toBeNull()
  })
})

describe('scrubText with least: the whole key only', () => {
  it('masks the whole key, raw or written with escapes, and leaves shorter stretches of it as they are', () => {
    const escaped = JSON.stringify(JSON.stringify({ k: KEY })).replace(KEY[3]!, `\\\\u${KEY.charCodeAt(3).toString(16).padStart(4, '0')}`)
    expect(scrubText(`a ${KEY} b`, KEY, WHOLE_KEY)).toBe('a [redacted] b')
    expect(scrubText(escaped, KEY, WHOLE_KEY)).not.toContain(KEY.slice(4))
    const stretch = KEY.slice(0, -1)
    expect(scrubText(`a ${stretch} b ${KEY.slice(1)}`, KEY, WHOLE_KEY)).toBe(`a ${stretch} b ${KEY.slice(1)}`)
    // The default masks those stretches too.
    expect(scrubText(`a ${stretch} b`, KEY)).toBe('a [redacted] b')
  })
})
