import { describe, expect, it } from 'vitest'
import { preview } from '../../src/errors/preview.js'

/** `levels` objects nested in one another around `leaf`: { a: { a: … leaf } }. */
const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { a: nest(levels - 1, leaf) })

describe('preview', () => {
  it('keeps strings of up to 1,000 characters whole, and cuts longer ones saying how long they were', () => {
    expect(preview('x'.repeat(1_000))).toBe('x'.repeat(1_000))
    expect(preview('x'.repeat(1_001))).toBe(`${'x'.repeat(1_000)}… (1001 characters)`)
  })

  it('keeps numbers, booleans, null and undefined as they are', () => {
    expect(preview(1.5)).toBe(1.5)
    expect(preview(false)).toBe(false)
    expect(preview(null)).toBeNull()
    expect(preview(undefined)).toBeUndefined()
    expect(preview({ a: null, b: [null] })).toEqual({ a: null, b: [null] })
  })

  it('writes a BigInt with its n, and names functions and symbols by their type', () => {
    expect(preview(10n)).toBe('10n')
    expect(preview(() => 1)).toBe('[function]')
    expect(preview(Symbol('s'))).toBe('[symbol]')
    expect(preview({ n: 2n, f() {}, s: Symbol.iterator })).toEqual({ n: '2n', f: '[function]', s: '[symbol]' })
  })

  it('writes a Date as ISO text, an invalid one as "Invalid Date"', () => {
    expect(preview(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05.000Z')
    expect(preview({ d: new Date(Number.NaN) })).toEqual({ d: 'Invalid Date' })
  })

  it('writes an error as its name and message', () => {
    expect(preview(new RangeError('too far'))).toEqual({ name: 'RangeError', message: 'too far' })
  })

  it('bounds an error’s message that is not text like any nested value', () => {
    const err = Object.assign(new Error(), { message: nest(6, 'leaf') })
    expect(preview(err)).toEqual({ name: 'Error', message: nest(5, '[object]') })
  })

  it('copies arrays item by item, up to 40 items, then says how many more', () => {
    expect(preview([1, 'a', { b: 2 }])).toEqual([1, 'a', { b: 2 }])
    const forty = Array.from({ length: 40 }, (_, i) => i)
    expect(preview(forty)).toEqual(forty)
    expect(preview([...forty, 40, 41])).toEqual([...forty, '… 2 more'])
  })

  it('copies up to 40 keys of an object, then says how many more', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
    expect(preview(keys(40))).toEqual(keys(40))
    expect(preview(keys(45))).toEqual({ ...keys(40), '…': '5 more keys' })
  })

  it('stops at 6 levels, naming what it left out', () => {
    expect(preview(nest(5, { b: 1 }))).toEqual(nest(5, { b: 1 }))
    expect(preview(nest(6, { b: 1 }))).toEqual(nest(6, '[object]'))
    expect(preview(nest(6, [1, 2, 3]))).toEqual(nest(6, '[array of 3]'))
    expect(preview(nest(5, [[1, 2]]))).toEqual(nest(5, ['[array of 2]']))
  })

  it('marks a circular reference, but copies an object met twice side by side', () => {
    const loop: Record<string, unknown> = { a: 1 }
    loop.self = loop
    expect(preview(loop)).toEqual({ a: 1, self: '[Circular]' })
    const shared = { v: 1 }
    expect(preview({ x: shared, y: shared, z: [shared, shared] })).toEqual({ x: { v: 1 }, y: { v: 1 }, z: [{ v: 1 }, { v: 1 }] })
  })

  it('writes "[unreadable]" for a getter that throws, and for an object that cannot be looked at', () => {
    const throwing = Object.defineProperty({ ok: 1 }, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter')
      },
    })
    expect(preview(throwing)).toEqual({ ok: 1, boom: '[unreadable]' })
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(preview(proxy)).toBe('[unreadable]')
    expect(preview({ p: proxy, q: 1 })).toEqual({ p: '[unreadable]', q: 1 })
  })
})
