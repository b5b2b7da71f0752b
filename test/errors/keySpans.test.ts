import { describe, expect, it } from 'vitest'
import { scrubText } from '../../src/errors/redact.js'

describe('keySpans', () => {
  it('finds a key made of characters a regular expression gives a meaning to', () => {
    for (const key of ['sk-^$^$(a[b{c|d.e*f+g?h\\i/j)k', 'sk-x)(][}{|?*+.$^\\/0123', 'key.....+++++*****?????']) {
      const text = `a ${key} b ${key.slice(3, 12)} c`
      expect(scrubText(text, key), key).toBe('a [redacted] b [redacted] c')
    }
  })
})
