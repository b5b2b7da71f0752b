import { describe, expect, it } from 'vitest'
import { maskedOutput } from '../../src/cli/maskedOutput.js'
import { KEY } from '../helpers/fixtures.js'

/** Writes `pieces` one by one and returns what reached the sink, write by write, before and after the flush. */
function feed(pieces: string[], secret: string | undefined = KEY): { live: string[]; all: string } {
  const live: string[] = []
  const out = maskedOutput((text) => live.push(text), secret)
  for (const piece of pieces) out.write(piece)
  const before = [...live]
  out.flush()
  return { live: before, all: live.join('') }
}

describe('maskedOutput', () => {
  it.each([1, 2, 3, 5, 7, 8, 13])('masks a key written %i characters at a time', (size) => {
    const text = `key: ${KEY}, again ${KEY.slice(0, 10)}!`
    const pieces = text.match(new RegExp(`[^]{1,${size}}`, 'g'))!
    expect(feed(pieces).all).toBe('key: [redacted], again [redacted]!')
  })

  it('masks 8-character fragments split over writes, and leaves 7 alone', () => {
    expect(feed(['x ', KEY.slice(3, 7), KEY.slice(7, 11), ' y']).all).toBe('x [redacted] y')
    expect(feed(['x ', KEY.slice(3, 6), KEY.slice(6, 10), ' y']).all).toBe(`x ${KEY.slice(3, 10)} y`)
  })

  it('passes ordinary text on at once: only an end that could start the key waits', () => {
    const { live } = feed(['Hello world\n', 'more text. '])
    expect(live.join('')).toBe('Hello world\nmore text. ')
    // "sk-l" could go on into the key: it waits for the next write (or the flush).
    expect(feed(['see sk-l']).live.join('')).toBe('see ')
    expect(feed(['see sk-l', 'ater']).all).toBe('see sk-later')
  })

  it('writes everything as it is without a key, or with a key under 8 characters', () => {
    expect(feed(['a', 'dev', 'b'], 'dev').live).toEqual(['a', 'dev', 'b'])
    expect(feed(['a', KEY], '').live).toEqual(['a', KEY])
  })
})
