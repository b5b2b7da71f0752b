import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { plainSha256 } from '../../src/contract/sha256.js'
import { createSha256 } from '../../src/download/sha256.js'

const nodeHex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('plainSha256 (the hasher where node:crypto is missing)', () => {
  it.each([0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1_000, 70_001])('matches node:crypto for %i bytes, fed whole or in uneven pieces', (size) => {
    const bytes = randomBytes(size)
    const whole = plainSha256()
    whole.update(bytes)
    expect(whole.hex()).toBe(nodeHex(bytes))
    const pieces = plainSha256()
    for (let at = 0, step = 1; at < size; at += step, step = (step * 7) % 97 || 1) pieces.update(bytes.subarray(at, at + step))
    expect(pieces.hex()).toBe(nodeHex(bytes))
  })

  it('knows the FIPS 180-4 vectors', () => {
    const hex = (text: string) => {
      const hash = plainSha256()
      hash.update(new TextEncoder().encode(text))
      return hash.hex()
    }
    expect(hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1')
  })
})

describe('createSha256', () => {
  it('hashes like node:crypto', () => {
    const bytes = randomBytes(3_000)
    const hash = createSha256()
    hash.update(bytes.subarray(0, 1_000))
    hash.update(bytes.subarray(1_000))
    expect(hash.hex()).toBe(nodeHex(bytes))
  })
})
