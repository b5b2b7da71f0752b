import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { seedOf } from '../../src/sim/pieces.js'
import { sha256 } from '../../src/sim/sha256.js'

describe('sha256', () => {
  it('gives the bytes of node:crypto’s SHA-256 for texts across block boundaries, multibyte ones included', () => {
    const texts = ['', 'abc', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(63), 'd'.repeat(64), 'e'.repeat(119), 'f'.repeat(1000), 'Slow dolly-in — a café 🌊 at dusk']
    for (const text of texts) expect(Buffer.from(sha256(text)).toString('hex'), JSON.stringify(text)).toBe(createHash('sha256').update(text).digest('hex'))
  })

  it('matches the published test vector', () => {
    expect(Buffer.from(sha256('abc')).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })

  it('seeds the simulator’s choices as before: seedOf is the SHA-256 of the prompt', () => {
    expect(Buffer.from(seedOf('A lighthouse')).equals(createHash('sha256').update('A lighthouse').digest())).toBe(true)
  })
})
