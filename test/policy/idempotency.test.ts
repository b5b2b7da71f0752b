import { afterEach, describe, expect, it, vi } from 'vitest'
import { newIdempotencyKey } from '../../src/policy/idempotency.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('newIdempotencyKey', () => {
  it('makes a fresh random UUID v4 each time', () => {
    const keys = Array.from({ length: 200 }, () => newIdempotencyKey())
    for (const key of keys) expect(key).toMatch(UUID_V4)
    expect(new Set(keys).size).toBe(200)
  })

  it('makes a UUID v4 from random bytes where crypto.randomUUID is missing (browsers outside secure contexts)', () => {
    const real = globalThis.crypto
    const getRandomValues = vi.fn(<T extends ArrayBufferView>(array: T) => real.getRandomValues(array as never) as T)
    vi.stubGlobal('crypto', { getRandomValues })
    const keys = Array.from({ length: 200 }, () => newIdempotencyKey())
    for (const key of keys) expect(key).toMatch(UUID_V4)
    expect(new Set(keys).size).toBe(200)
    expect(getRandomValues).toHaveBeenCalledTimes(200)
  })

  it('sets the version and variant bits whatever the random bytes are', () => {
    vi.stubGlobal('crypto', { getRandomValues: <T extends Uint8Array>(array: T) => array.fill(0xff) })
    expect(newIdempotencyKey()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff')
    vi.stubGlobal('crypto', { getRandomValues: <T extends Uint8Array>(array: T) => array.fill(0) })
    expect(newIdempotencyKey()).toBe('00000000-0000-4000-8000-000000000000')
  })
})
