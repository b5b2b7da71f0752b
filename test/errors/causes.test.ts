import { describe, expect, it } from 'vitest'
import { causes, errorCode } from '../../src/errors/causes.js'

const coded = (code: unknown, cause?: unknown) => Object.assign(new Error(String(code)), { code }, cause === undefined ? {} : { cause })

describe('causes', () => {
  it('walks from the error down its causes, outermost first', () => {
    const socket = coded('ECONNRESET')
    const wrapped = new TypeError('fetch failed', { cause: socket })
    expect([...causes(wrapped)]).toEqual([wrapped, socket])
  })

  it('stops at 4 levels, so a cause chain that loops ends', () => {
    const loop: { cause?: unknown } = {}
    loop.cause = loop
    expect([...causes(loop)]).toHaveLength(4)
  })

  it('yields nothing for no error', () => {
    expect([...causes(undefined)]).toEqual([])
    expect([...causes(null)]).toEqual([])
  })
})

describe('errorCode', () => {
  it('is the first string code along the chain', () => {
    expect(errorCode(new TypeError('fetch failed', { cause: coded('ECONNREFUSED') }))).toBe('ECONNREFUSED')
    expect(errorCode(coded('UND_ERR_SOCKET', coded('ECONNRESET')))).toBe('UND_ERR_SOCKET')
  })

  it('skips codes that are not strings, and finds one deeper', () => {
    expect(errorCode(coded(42, coded('EPIPE')))).toBe('EPIPE')
  })

  it('is undefined without one, or past 4 levels', () => {
    expect(errorCode(new Error('plain'))).toBeUndefined()
    let deep: unknown = coded('ETOODEEP')
    for (let i = 0; i < 4; i++) deep = new Error('wrap', { cause: deep })
    expect(errorCode(deep)).toBeUndefined()
  })
})
